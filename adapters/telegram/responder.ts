import { withTextFile } from '../common/text-file.js';
import { editedProgress, planReply, TypingWhileWorking, type PlannedPart } from '../common/reply-plan.js';
import type { DeliveryJournal, LiveAnswer, Responder } from '../../src/shared/channel.js';
import type { Logger } from '../../src/shared/log.js';
import type { InboundMessage, Language } from '../../src/shared/types.js';
import { telegramCapabilities, telegramReplyShape } from './capabilities.js';
import { describeDeliveryFailure, TelegramDeliveryError } from './delivery-failure.js';
import type { TelegramDelivery } from './delivery.js';
import { telegramLiveAnswer } from './live-answer.js';
import { draftIdOf } from './message-draft.js';
import { replyTargetOf } from './target.js';

// How one stored message is answered (docs/architecture.md, "Data flow of one message", step 7): the reply's
// Markdown as Telegram HTML parts, then its files as documents, each part journaled; in groups the first part
// replies to the user's message. Progress is one edited status message per turn; typing runs while the turn does.
// A streamed answer (live-answer.ts) is completed, not repeated: in a group, part 0 goes into its live message.

export interface TelegramResponderOptions {
  delivery: TelegramDelivery;
  logger: Logger;
  language: Language;
}

export function telegramResponder(message: InboundMessage, options: TelegramResponderOptions): Responder {
  const { delivery, logger } = options;
  const target = replyTargetOf(message);
  const { chatId, replyToMessageId, threadId } = target;
  const inTopic = threadId === undefined ? {} : { threadId };
  const replyTo = replyToMessageId === undefined ? {} : { replyToMessageId };
  const typing = new TypingWhileWorking(telegramCapabilities, () => delivery.startTyping(chatId, threadId));

  /**
   * Part 0 into the live message a group answer streamed into (retried like a send); false when there is none or
   * the user deleted it, and part 0 is then sent as a new message.
   */
  const completeLive = async (plan: readonly PlannedPart[], journal: DeliveryJournal): Promise<boolean> => {
    const first = plan[0];
    const messageId = Number(journal.liveMessage);
    if (journal.liveMessage === undefined || !Number.isSafeInteger(messageId) || first?.kind !== 'text' || journal.isSent(0)) return false;
    await journal.sending(0);
    const outcome = await delivery.editPart(chatId, messageId, { text: first.content, parseMode: 'HTML' });
    if (outcome === 'gone') return false;
    await journal.sent(0);
    return true;
  };

  /** The leading text parts go in one call (a part failing stops the rest), each journaled as it is sent. */
  const sendText = async (plan: readonly PlannedPart[], journal: DeliveryJournal, done: ReadonlySet<number>): Promise<void> => {
    const unsent = plan.flatMap((part, index) => (part.kind === 'text' && !journal.isSent(index) && !done.has(index) ? [{ text: part.content, index }] : []));
    const [first] = unsent;
    if (!first) return;
    await journal.sending(first.index);
    const rendered = unsent.map((part) => ({ text: part.text, parseMode: 'HTML' as const }));
    await delivery.sendParts(chatId, rendered, {
      ...replyTo,
      ...inTopic,
      onPartSent: async (position) => {
        const sent = unsent[position];
        if (sent) await journal.sent(sent.index);
        const next = unsent[position + 1];
        if (next) await journal.sending(next.index);
      },
    });
  };

  /** The rest of a long answer and the reply's files, as documents. */
  const sendDocuments = async (plan: readonly PlannedPart[], journal: DeliveryJournal): Promise<void> => {
    for (const [index, part] of plan.entries()) {
      if (part.kind === 'text' || journal.isSent(index)) continue;
      await journal.sending(index);
      if (part.kind === 'text-file') {
        await withTextFile(part.name, part.text, (file) => delivery.sendDocument(chatId, file, { ...replyTo, ...inTopic }));
      } else {
        await delivery.sendDocument(chatId, { path: part.file.path, name: part.file.name }, { ...replyTo, ...inTopic });
      }
      await journal.sent(index);
    }
  };

  /** A reply that did not get through fully: the user is told (best effort) unless the chat cannot be reached at all. */
  const tellFailure = async (error: TelegramDeliveryError): Promise<void> => {
    if (error.kind === 'blocked' || error.kind === 'rate-limited') return;
    try {
      await delivery.sendParts(chatId, [{ text: describeDeliveryFailure(error, options.language), parseMode: undefined }], inTopic);
    } catch {
      // The failure is logged by the caller; there is nothing more to try.
    }
  };

  const progress = editedProgress(telegramCapabilities, () => delivery.progressMessage(chatId, threadId));
  let live: LiveAnswer | undefined;
  return {
    send: async (reply, journal) => {
      await typing.settled();
      // The router ends the live answer first; ending it again here keeps a late preview from landing after the answer.
      await live?.end();
      const plan = planReply(reply, telegramReplyShape, options.language);
      try {
        const done = new Set<number>((await completeLive(plan, journal)) ? [0] : []);
        await sendText(plan, journal, done);
        await sendDocuments(plan, journal);
      } catch (error) {
        if (error instanceof TelegramDeliveryError) {
          logger.warn({ chatId, kind: error.kind, sentParts: error.sentParts }, 'telegram reply not fully delivered');
          await tellFailure(error);
        }
        throw error;
      }
    },
    ...(progress ? { progress } : {}),
    working: typing.working,
    live: (start) => {
      live = telegramLiveAnswer(start, {
        delivery,
        logger,
        language: options.language,
        target,
        chatKind: message.chatKind,
        draftId: draftIdOf(message.messageId),
      });
      return live;
    },
  };
}
