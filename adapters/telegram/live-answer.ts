import type { Telegram } from 'telegraf';
import type { LiveAnswer, LiveAnswerStart } from '../../src/shared/channel.js';
import type { Logger } from '../../src/shared/log.js';
import type { ChatKind, Language } from '../../src/shared/types.js';
import { LiveMessage, type LiveCallOutcome, type LiveMessageSender } from '../common/live-message.js';
import { TelegramDeliveryError } from './delivery-failure.js';
import type { TelegramDelivery } from './delivery.js';
import { previewPart, statusPart } from './live-preview.js';
import { sendMessageDraft } from './message-draft.js';
import { htmlToPlainText } from './plain-text.js';
import { classifySendError } from './send-problem.js';
import type { ReplyTarget } from './target.js';

// A Telegram live answer (docs/architecture.md, "Streaming answers"). A private chat gets drafts (sendMessageDraft):
// an animated preview that leaves nothing behind, so there is no handle to remember and the answer is sent as
// usual. A group gets one message, replying to the question in its topic, edited in place; its id is remembered so
// the final reply completes it (responder.ts) and a restart continues it. Best effort: failures are logged by kind.

/**
 * Drafts are not stored messages and Telegram animates from one to the next, so they may come faster than edits
 * (about one a second per chat); two a second reads as smooth streaming and stays far under the bot's overall
 * ~30 calls a second. A 429 still pauses them for as long as Telegram asks.
 */
export const draftIntervalMs = 500;
/** Telegram allows about one edit a second per chat. */
export const editIntervalMs = 1_000;

export interface TelegramLiveOptions {
  delivery: TelegramDelivery;
  logger: Logger;
  language: Language;
  target: ReplyTarget;
  chatKind: ChatKind;
  /** The draft id of this message's answer (message-draft.ts `draftIdOf`). */
  draftId: number;
}

type Call<Result> = (telegram: Telegram, target: number, text: string, parseMode: { parse_mode?: 'HTML' }) => Promise<Result>;

/** What a live call's failure means to the paced message; undefined for a failure to report. */
function outcomeOf(error: unknown): LiveCallOutcome | undefined {
  const problem = classifySendError(error);
  if (problem.kind === 'rate-limited') return { retryAfterMs: problem.retryAfterSeconds * 1000 };
  if (problem.kind === 'not-modified') return 'shown';
  if (problem.kind === 'message-gone') return 'gone';
  return undefined;
}

export function telegramLiveAnswer(start: LiveAnswerStart, options: TelegramLiveOptions): LiveAnswer {
  const { delivery, logger, target } = options;
  const { chatId, threadId, replyToMessageId } = target;
  const inTopic = threadId === undefined ? {} : { message_thread_id: threadId };

  /** One live call as HTML, again as plain text when Telegram cannot parse it. */
  const call = async <Result>(what: 'message' | 'edit', html: string, send: Call<Result>): Promise<Result> => {
    try {
      return await delivery.liveCall(chatId, what, (telegram, to) => send(telegram, to, html, { parse_mode: 'HTML' }));
    } catch (error) {
      if (classifySendError(error).kind !== 'unparsable') throw error;
      return await delivery.liveCall(chatId, what, (telegram, to) => send(telegram, to, htmlToPlainText(html), {}));
    }
  };
  const asOutcome = async (shown: () => Promise<unknown>): Promise<LiveCallOutcome> => {
    try {
      await shown();
      return 'shown';
    } catch (error) {
      const outcome = outcomeOf(error);
      if (outcome === undefined) throw error;
      return outcome;
    }
  };
  /** Set when Telegram refused the live answer itself (blocked, no right to post, drafts not allowed for this bot). */
  let refused = false;
  const onError = (error: unknown): void => {
    const kind = error instanceof TelegramDeliveryError ? error.kind : classifySendError(error).kind;
    if (refused) return;
    // A refusal would repeat at every update: the preview stops there (once logged); the answer is still sent.
    refused = kind === 'blocked' || kind === 'rejected';
    const fields = { chatId, kind, chatKind: options.chatKind };
    if (kind === 'blocked') logger.debug(fields, 'telegram live answer: the chat is unreachable; no more previews');
    else logger.warn(fields, refused ? 'telegram live answer: refused; no more previews for this answer' : 'telegram live answer: an update failed');
  };

  const draft = (text: string) =>
    call('edit', text, (telegram, to, shown, parseMode) =>
      sendMessageDraft(telegram, { chat_id: to, draft_id: options.draftId, text: shown, ...parseMode, ...inTopic }),
    );
  const drafts: LiveMessageSender<number> = {
    send: async (text) => {
      const outcome = await asOutcome(() => draft(text));
      return typeof outcome === 'object' ? outcome : { id: options.draftId };
    },
    edit: (_id, text) => asOutcome(() => draft(text)),
    onError,
  };

  const replyTo = replyToMessageId === undefined ? {} : { reply_parameters: { message_id: replyToMessageId, allow_sending_without_reply: true } };
  const edits: LiveMessageSender<number> = {
    send: async (text) => {
      try {
        const sent = await call('message', text, (telegram, to, shown, parseMode) => telegram.sendMessage(to, shown, { ...replyTo, ...inTopic, ...parseMode }));
        return { id: sent.message_id };
      } catch (error) {
        const outcome = outcomeOf(error);
        if (typeof outcome === 'object') return outcome;
        throw error;
      }
    },
    edit: (id, text) => asOutcome(() => call('edit', text, (telegram, to, shown, parseMode) => telegram.editMessageText(to, id, undefined, shown, parseMode))),
    onError,
  };

  const earlier = start.earlier === undefined ? undefined : Number(start.earlier);
  const message =
    options.chatKind === 'direct'
      ? new LiveMessage<number>({ sender: drafts, scheduler: delivery.scheduler, minIntervalMs: draftIntervalMs })
      : new LiveMessage<number>({
          sender: edits,
          scheduler: delivery.scheduler,
          minIntervalMs: editIntervalMs,
          ...(earlier !== undefined && Number.isSafeInteger(earlier) ? { earlier } : {}),
          remember: (id) => start.remember(String(id)),
        });

  let shownMarkdown: string | undefined;
  return {
    show: (text) => {
      const part = refused ? undefined : previewPart(text);
      if (!part) return;
      shownMarkdown = text;
      message.update(part.text);
    },
    status: (step) => {
      if (!refused) message.update(statusPart(step, options.language, shownMarkdown).text);
    },
    end: async () => {
      await message.end();
    },
  };
}
