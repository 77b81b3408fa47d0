import { Events, REST, Routes, type Client } from 'discord.js';
import type { Scheduler } from '../../../adapters/common/scheduler.js';
import { DiscordDelivery } from '../../../adapters/discord/delivery.js';
import { previewRest } from '../../../adapters/discord/preview-rest.js';
import { discordResponder } from '../../../adapters/discord/responder.js';
import { interactionMessageId } from '../../../adapters/discord/target.js';
import type { Logger } from '../../../src/shared/log.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import { discordUser, startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.js';
import { newClient } from '../../fakes/discord/test-client.js';

// The Discord responder's tests share this: a fake Discord with one `general` channel, the two REST clients the
// adapter makes (answers, previews), a stored question as the core hands it back, a slash command the bot deferred,
// and a journal that records what it was told.

export const somchai = discordUser('somchai');

export interface ResponderSetup {
  fake: FakeDiscord;
  rest: REST;
  preview: REST;
  /** A logged-in client, when a test dispatched a slash command (the fake sends interactions over a gateway). */
  client?: Client;
  close(): Promise<void>;
}

export async function setUpResponder(): Promise<ResponderSetup> {
  const fake = await startFakeDiscord({ guilds: [{ channels: [{ name: 'general' }], members: [{ user: somchai }] }] });
  const setup: ResponderSetup = {
    fake,
    rest: new REST({ api: fake.apiUrl }).setToken(fake.token),
    preview: previewRest({ token: fake.token, apiBaseUrl: fake.apiUrl }),
    close: async () => {
      await setup.client?.destroy();
      await fake.close();
    },
  };
  return setup;
}

export function responderFor(setup: ResponderSetup, message: InboundMessage, options: { scheduler?: Scheduler; logger?: Logger } = {}) {
  const logger = options.logger ?? silentLogger();
  return discordResponder(message, {
    delivery: new DiscordDelivery(setup.rest, logger),
    rest: setup.rest,
    previewRest: setup.preview,
    applicationId: () => setup.fake.applicationId,
    logger,
    language: 'th',
    ...(options.scheduler ? { scheduler: options.scheduler } : {}),
  });
}

export function question(fake: FakeDiscord, overrides: Partial<InboundMessage> = {}): InboundMessage {
  const channelId = fake.channel('general').id;
  return {
    platform: 'discord',
    conversationKey: `discord:${channelId}`,
    spaceKey: `discord:${fake.guilds[0]?.id ?? ''}`,
    messageId: `${channelId}:1500000000000000009`,
    chatKind: 'group',
    sender: { id: somchai.id, name: 'somchai', isPlatformAdmin: false },
    text: 'คำถาม',
    mentionsBot: true,
    repliesToBot: false,
    attachments: [],
    receivedAt: new Date(),
    ...overrides,
  };
}

/** A slash command the fake dispatched and the bot deferred, as the stored message the core answers. */
export async function deferredCommand(setup: ResponderSetup, commandName: string, text: string): Promise<InboundMessage & { interactionId: string }> {
  const { fake } = setup;
  const client = newClient(fake);
  setup.client = client;
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(fake.token);
  await ready;
  const channelId = fake.channel('general').id;
  const { id, token } = await fake.dispatchInteraction({ commandName, channelId, user: somchai });
  await setup.rest.post(Routes.interactionCallback(id, token), { body: { type: 5 }, auth: false });
  const replyToken = { value: token, expiresAt: new Date(Date.now() + 15 * 60_000) };
  return { ...question(fake, { messageId: interactionMessageId(channelId, id), text, replyToken }), interactionId: id };
}
