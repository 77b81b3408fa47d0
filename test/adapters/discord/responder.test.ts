import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Events, REST, Routes, type Client } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderForPlatform } from '../format/by-platform.js';
import { DiscordDelivery, discordUploadLimitBytes } from '../../../adapters/discord/delivery.js';
import { discordResponder } from '../../../adapters/discord/responder.js';
import { interactionMessageId } from '../../../adapters/discord/target.js';
import { memoryJournal } from '../../../src/pipeline/reply-journal.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { InboundMessage, OutboundFile } from '../../../src/shared/types.js';
import { discordUser, startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.js';
import { newClient } from '../../fakes/discord/test-client.js';
import { longThaiText } from '../../support/long-thai-text.js';

// The Discord responder over real @discordjs/rest against the fake: a slash command's long answer edits the
// deferred reply and follows up, progress shows in the deferred reply or in one edited channel message, files go
// as attachments and one over the upload limit becomes a note.

const somchai = discordUser('somchai');
let fake: FakeDiscord;
let rest: REST;
let directory: string;
let client: Client | undefined;

beforeEach(async () => {
  fake = await startFakeDiscord({ guilds: [{ channels: [{ name: 'general' }], members: [{ user: somchai }] }] });
  rest = new REST({ api: fake.apiUrl }).setToken(fake.token);
  directory = mkdtempSync(path.join(os.tmpdir(), 'saeng-discord-files-'));
});
afterEach(async () => {
  await client?.destroy();
  client = undefined;
  await fake.close();
  rmSync(directory, { recursive: true, force: true });
});

function responderFor(message: InboundMessage) {
  return discordResponder(message, {
    delivery: new DiscordDelivery(rest, silentLogger()),
    rest,
    applicationId: () => fake.applicationId,
    logger: silentLogger(),
    language: 'th',
  });
}

function question(overrides: Partial<InboundMessage> = {}): InboundMessage {
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
async function deferredCommand(commandName: string, text: string): Promise<InboundMessage> {
  // The fake dispatches interactions over a gateway connection: a client must be logged in to receive them.
  client = newClient(fake);
  const ready = new Promise<void>((resolve) => client?.once(Events.ClientReady, () => resolve()));
  await client.login(fake.token);
  await ready;
  const channelId = fake.channel('general').id;
  const { id, token } = await fake.dispatchInteraction({ commandName, channelId, user: somchai });
  await rest.post(Routes.interactionCallback(id, token), { body: { type: 5 }, auth: false });
  return question({ messageId: interactionMessageId(channelId, id), text, replyToken: { value: token, expiresAt: new Date(Date.now() + 15 * 60_000) } });
}

function file(name: string, bytes: number): OutboundFile {
  const filePath = path.join(directory, name);
  writeFileSync(filePath, Buffer.alloc(bytes, 0x41));
  return { name, path: filePath, mime: 'text/plain', size: bytes };
}

describe('Discord responder', () => {
  it('edits the deferred reply into the first part of a long answer and follows up with the rest', async () => {
    const message = await deferredCommand('research', '/research เล่าประวัติ');
    const text = longThaiText(4_500);
    await responderFor(message).send({ text, files: [] }, memoryJournal());
    const expected = renderForPlatform(text, 'discord');
    expect(expected.length).toBeGreaterThan(2);
    expect(fake.callsOf(`PATCH /webhooks/${fake.applicationId}/*/messages/@original`)).toHaveLength(1);
    expect(fake.callsOf(`POST /webhooks/${fake.applicationId}/*`)).toHaveLength(expected.length - 1);
    expect(fake.sentMessages(fake.channel('general').id).map((sent) => sent.content)).toEqual(expected);
  });

  it('shows /research progress in the deferred reply, which the answer then replaces', async () => {
    const message = await deferredCommand('research', '/research ราคาทอง');
    const responder = responderFor(message);
    await responder.progress?.({ source: 'research', text: 'กำลังค้นรอบที่ 1' });
    await responder.progress?.({ source: 'research', text: 'กำลังค้นรอบที่ 2' });
    expect(fake.sentMessages(fake.channel('general').id).map((sent) => sent.content)).toEqual(['กำลังค้นรอบที่ 2']);
    await responder.send({ text: 'สรุปราคาทอง', files: [] }, memoryJournal());
    expect(fake.sentMessages(fake.channel('general').id).map((sent) => sent.content)).toEqual(['สรุปราคาทอง']);
  });

  it('shows progress of a typed command as one channel message, edited in place', async () => {
    const responder = responderFor(question({ text: '/research ราคาทอง' }));
    await responder.progress?.({ source: 'research', text: 'รอบที่ 1' });
    await responder.progress?.({ source: 'research', text: 'รอบที่ 2' });
    const channelId = fake.channel('general').id;
    expect(fake.callsOf('POST /channels/*/messages')).toHaveLength(1);
    expect(fake.sentMessages(channelId).map((sent) => sent.content)).toEqual(['รอบที่ 2']);
  });

  it('sends written files as attachments and says so when one is over the upload limit', async () => {
    const responder = responderFor(question());
    await responder.send({ text: 'ไฟล์สรุป', files: [file('summary.txt', 20), file('huge.bin', discordUploadLimitBytes + 1)] }, memoryJournal());
    const sent = fake.sentMessages(fake.channel('general').id);
    expect(sent.map((message) => message.content)).toEqual(['ไฟล์สรุป', '', 'ไฟล์ huge.bin ใหญ่เกินกว่าที่ Discord รับได้ (10 MB) จึงส่งไม่ได้']);
    expect(sent[1]?.attachments.map((attachment) => attachment.filename)).toEqual(['summary.txt']);
  });
});
