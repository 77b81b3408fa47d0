import { capReply } from '../format/index.js';
import { withTextFile } from '../common/text-file.js';
import type { DeliveryJournal, Responder } from '../../src/shared/channel.js';
import type { Logger } from '../../src/shared/log.js';
import type { InboundMessage, Language, Reply } from '../../src/shared/types.js';
import { describeDeliveryFailure, TelegramDeliveryError } from './delivery-failure.js';
import type { TelegramDelivery } from './delivery.js';
import type { ProgressMessage } from '../common/progress-message.js';
import { replyTargetOf } from './target.js';
import type { TypingHandle } from '../common/typing.js';

// How one stored message is answered (docs/architecture.md, "Data flow of one message", step 7): the reply's
// Markdown as Telegram HTML parts, then its files as documents, each part journaled; in groups the first part
// replies to the user's message. Progress is one edited status message per turn; typing runs while the turn does.

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
  let progressMessage: ProgressMessage | undefined;
  // A stopped typing loop may still have an action in flight: the answer waits for it, so typing does not reappear.
  let typingStopped: Promise<void> = Promise.resolve();

  const sendText = async (parts: readonly string[], journal: DeliveryJournal): Promise<void> => {
    const unsent = parts.map((text, index) => ({ text, index })).filter((part) => !journal.isSent(part.index));
    const [first] = unsent;
    if (!first) return;
    await journal.sending(first.index);
    const rendered = unsent.map((part) => ({ text: part.text, parseMode: 'HTML' as const }));
    await delivery.sendParts(chatId, rendered, {
      ...(replyToMessageId === undefined ? {} : { replyToMessageId }),
      ...inTopic,
      onPartSent: async (position) => {
        const sent = unsent[position];
        if (sent) await journal.sent(sent.index);
        const next = unsent[position + 1];
        if (next) await journal.sending(next.index);
      },
    });
  };

  const sendFiles = async (reply: Reply, firstPart: number, journal: DeliveryJournal): Promise<void> => {
    for (const [offset, file] of reply.files.entries()) {
      const part = firstPart + offset;
      if (journal.isSent(part)) continue;
      await journal.sending(part);
      await delivery.sendDocument(
        chatId,
        { path: file.path, name: file.name },
        { ...(replyToMessageId === undefined ? {} : { replyToMessageId }), ...inTopic },
      );
      await journal.sent(part);
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

  return {
    send: async (reply, journal) => {
      await typingStopped;
      const capped = capReply(reply.text, 'telegram', { language: options.language, restAsFile: true });
      try {
        await sendText(capped.parts, journal);
        const restPart = capped.parts.length;
        if (capped.rest && !journal.isSent(restPart)) {
          const { name, text } = capped.rest;
          await journal.sending(restPart);
          await withTextFile(name, text, (file) =>
            delivery.sendDocument(chatId, file, { ...(replyToMessageId === undefined ? {} : { replyToMessageId }), ...inTopic }),
          );
          await journal.sent(restPart);
        }
        await sendFiles(reply, restPart + (capped.rest ? 1 : 0), journal);
      } catch (error) {
        if (error instanceof TelegramDeliveryError) {
          logger.warn({ chatId, kind: error.kind, sentParts: error.sentParts }, 'telegram reply not fully delivered');
          await tellFailure(error);
        }
        throw error;
      }
    },
    progress: async (event) => {
      progressMessage ??= delivery.progressMessage(chatId, threadId);
      await progressMessage.update(event.text);
    },
    working: () => {
      const typing: TypingHandle = delivery.startTyping(chatId, threadId);
      return () => {
        typingStopped = typing.stop();
      };
    },
  };
}
