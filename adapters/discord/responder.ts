import { readFile } from 'node:fs/promises';
import type { REST } from 'discord.js';
import { editedProgress, planReply, TypingWhileWorking, type PlannedPart } from '../common/reply-plan.js';
import { timerScheduler, type Scheduler } from '../common/scheduler.js';
import { withTextFile } from '../common/text-file.js';
import type { DeliveryJournal, Responder } from '../../src/shared/channel.js';
import { say, type Localized } from '../../src/shared/i18n.js';
import type { Logger } from '../../src/shared/log.js';
import type { InboundMessage, Language, OutboundFile, Reply } from '../../src/shared/types.js';
import { discordCapabilities, discordReplyShape } from './capabilities.js';
import { discordUploadLimitBytes, type DiscordDelivery } from './delivery.js';
import { InteractionReply, InteractionTokenGone } from './interaction-reply.js';
import { discordLiveAnswer, originalMessage } from './live-answer.js';
import { discordTargetOf, type DiscordTarget } from './target.js';

// How one stored message is answered (docs/architecture.md, "Data flow of one message", step 7): the reply's
// Markdown as Discord parts of at most 2,000 characters, then its files as attachments, each part journaled. A
// message is answered in its channel, the first part replying to it; a slash command through its interaction
// token (the deferred reply edited, follow-ups after it) while the token lives, then in the channel. A live answer
// (live-answer.ts) shows the answer while it is written in one message, which the final reply's first part completes.

export interface DiscordResponderOptions {
  delivery: DiscordDelivery;
  rest: REST;
  /** The live answers' client, which skips long rate-limit waits (preview-rest.ts). */
  previewRest: REST;
  /** The live answers' pace. Default: real timers. */
  scheduler?: Scheduler;
  /** The application's id (known once the gateway is ready): the interaction webhooks are addressed by it. */
  applicationId(): string | undefined;
  logger: Logger;
  language: Language;
}

const fileTooLarge: Localized = {
  th: 'ไฟล์ {name} ใหญ่เกินกว่าที่ Discord รับได้ ({limit} MB) จึงส่งไม่ได้',
  en: 'The file {name} is larger than Discord accepts ({limit} MB), so it could not be sent.',
};

/** A minute's margin: a token that expires during a long answer would fail halfway. */
const tokenMarginMs = 60_000;

export function discordResponder(message: InboundMessage, options: DiscordResponderOptions): Responder {
  const { delivery, logger } = options;
  const target: DiscordTarget = discordTargetOf(message);
  const channelId = target.channelId;
  let interaction: InteractionReply | undefined;
  let previewInteraction: InteractionReply | undefined;
  if (target.kind === 'interaction' && target.expiresAt.getTime() - tokenMarginMs > Date.now()) {
    const applicationId = options.applicationId();
    if (applicationId) {
      const address = { applicationId, token: target.token, ephemeral: target.ephemeral };
      interaction = new InteractionReply(options.rest, address);
      previewInteraction = new InteractionReply(options.previewRest, address);
    }
  }
  // The deferred reply is edited once into the first part; after that, parts follow up.
  let originalUsed = false;
  // A deferred slash command already shows "thinking…".
  const typing = new TypingWhileWorking(discordCapabilities, () => (target.kind === 'interaction' ? undefined : delivery.startTyping(channelId)));
  const progressInChannel = editedProgress(discordCapabilities, () => delivery.progressMessage(channelId));
  const replyToMessageId = target.kind === 'message' && target.inGuild ? target.messageId : undefined;

  const sendOne = async (outgoing: PlannedPart): Promise<void> => {
    if (outgoing.kind === 'text-file') {
      return withTextFile(outgoing.name, outgoing.text, (file) => sendOne({ kind: 'file', file: { ...file, mime: 'text/plain' } }));
    }
    if (interaction) {
      try {
        if (outgoing.kind === 'text') {
          if (originalUsed) await interaction.followUp(outgoing.content);
          else await interaction.editOriginal(outgoing.content);
          originalUsed = true;
          return;
        }
        const data = await readFile(outgoing.file.path);
        if (data.length > discordUploadLimitBytes) return await sendOne(tooLargeNote(outgoing.file));
        await interaction.followUp(undefined, { name: outgoing.file.name, data });
        return;
      } catch (error) {
        if (!(error instanceof InteractionTokenGone)) throw error;
        logger.info({ channelId }, 'discord interaction token gone: answering in the channel');
        interaction = undefined;
      }
    }
    if (outgoing.kind === 'text') {
      await delivery.sendParts(channelId, [outgoing.content], replyToMessageId === undefined ? {} : { replyToMessageId });
      return;
    }
    if (!(await delivery.sendFile(channelId, { path: outgoing.file.path, name: outgoing.file.name }, replyToMessageId))) {
      await sendOne(tooLargeNote(outgoing.file));
    }
  };

  const tooLargeNote = (file: OutboundFile): PlannedPart => ({
    kind: 'text',
    content: say(fileTooLarge, options.language, { name: file.name, limit: discordUploadLimitBytes / (1024 * 1024) }),
  });

  /** The first part into the live message that showed the answer (an edit, retried like a send); posted if deleted. */
  const completeLive = async (messageId: string, part: PlannedPart): Promise<void> => {
    if (part.kind !== 'text' || messageId === originalMessage) return sendOne(part);
    if ((await delivery.editPart(channelId, messageId, part.content)) === 'gone') await sendOne(part);
  };

  const send = async (reply: Reply, journal: DeliveryJournal): Promise<void> => {
    await typing.settled();
    const outgoing = planReply(reply, discordReplyShape, options.language);
    // A restart after the first part: the original was edited by then, so the rest follow up.
    if (journal.isSent(0)) originalUsed = true;
    for (const [index, part] of outgoing.entries()) {
      if (journal.isSent(index)) continue;
      await journal.sending(index);
      await (index === 0 && journal.liveMessage !== undefined ? completeLive(journal.liveMessage, part) : sendOne(part));
      await journal.sent(index);
    }
  };

  return {
    send,
    progress: async (event) => {
      if (interaction && !originalUsed) {
        // The caller watches the deferred reply: progress goes there, and the answer replaces it.
        await interaction.editOriginal(event.text).catch((error: unknown) => logger.debug({ channelId, error: String(error) }, 'discord progress edit failed'));
        return;
      }
      await progressInChannel?.(event);
    },
    working: typing.working,
    live: (start) =>
      discordLiveAnswer(start, {
        rest: options.previewRest,
        channelId,
        replyToMessageId,
        // The deferred reply while its token lives: the final reply edits it too, so nothing is remembered for it.
        ...(previewInteraction
          ? {
              interaction: {
                current: () => (interaction ? previewInteraction : undefined),
                drop: () => void (interaction = undefined),
              },
            }
          : {}),
        privateAnswer: target.kind === 'interaction' && target.ephemeral,
        scheduler: options.scheduler ?? timerScheduler,
        logger,
        language: options.language,
      }),
  };
}
