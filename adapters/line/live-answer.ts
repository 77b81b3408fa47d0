import type { LiveAnswer, LiveAnswerStart } from '../../src/shared/channel.js';
import { errorSummary } from '../../src/shared/describe-error.js';
import { say, type Localized } from '../../src/shared/i18n.js';
import type { Logger } from '../../src/shared/log.js';
import { stepStatusText } from '../../src/shared/step-labels.js';
import type { Language, TurnStep } from '../../src/shared/types.js';
import { planReply } from '../common/reply-plan.js';
import type { Scheduler } from '../common/scheduler.js';
import { lineCapabilities, lineReplyShape } from './capabilities.js';
import { earlyPart, earlyReplyHandle, readEarlyReply } from './early-reply.js';

// A LINE answer while it is written (docs/architecture.md, "Streaming answers"). LINE cannot edit a message, so
// nothing is shown as the model writes — the loading animation stays — but the stream tells how far the answer got.
// When the reply window closes (LINE_REPLY_WINDOW_MS after the message) with the turn still running, the free reply
// token is not left to expire: the reply carries the answer written so far (guard-checked, as every live text) and a
// note that the rest follows — or, before any text, what the turn is doing — and the final reply pushes only the rest
// (responder.ts). Before, such an answer went out whole as one late push, and a group heard nothing until then.

const strings = {
  rest: {
    th: '(ยังเขียนคำตอบอยู่ ส่วนที่เหลือจะส่งตามมา)',
    en: '(Still writing: the rest of the answer follows.)',
  },
  working: {
    th: '{status} คำตอบจะส่งตามมาเมื่อเสร็จ',
    en: '{status} The answer follows when it is ready.',
  },
  thinking: { th: 'กำลังคิดคำตอบ…', en: 'Working on the answer…' },
} satisfies Record<string, Localized>;

/** The early reply goes this long before the window closes, so that it reaches LINE while the token is fresh. */
export const earlyReplyLeadMs = 2_000;

export interface LineLiveOptions {
  /** When the reply token stops being used (the message's time plus LINE_REPLY_WINDOW_MS); none: no token. */
  replyBy: number | undefined;
  now: () => number;
  scheduler: Scheduler;
  language: Language;
  logger: Logger;
  /** Takes the reply token for the early reply: false when a reply used it already. */
  claimReply(): boolean;
  /** Sends the texts as the message's one reply; false when LINE refused the token (nothing went out). */
  reply(texts: string[]): Promise<boolean>;
}

/** The texts of an early reply: the answer so far (at most four bubbles) and the note, or the status alone. */
export function earlyReplyTexts(part: string, status: string | undefined, language: Language): string[] {
  if (part !== '') {
    const texts = planReply({ text: part, files: [] }, lineReplyShape, language).flatMap((planned) => (planned.kind === 'text' ? [planned.content] : []));
    if (texts.length > 0 && texts.length < lineCapabilities.maxMessagesPerReply) return [...texts, say(strings.rest, language)];
  }
  return [say(strings.working, language, { status: status ?? say(strings.thinking, language) })];
}

export function lineLiveAnswer(start: LiveAnswerStart, options: LineLiveOptions): LiveAnswer {
  let shown = '';
  let status: string | undefined;
  let sending: Promise<void> | undefined;
  const replyNow = async (): Promise<void> => {
    if (!options.claimReply()) return;
    // What the final reply must not send again: the Markdown the reply's bubbles were made from.
    const part = earlyPart(shown);
    const texts = earlyReplyTexts(part, status, options.language);
    const carried = texts.length > 1 ? part : '';
    try {
      if (!(await options.reply(texts))) return;
      await start.remember(earlyReplyHandle(carried));
      options.logger.info(
        { carriedChars: carried.length },
        'line: reply window closing with the answer unfinished: replied with what is ready, the rest is pushed',
      );
    } catch (error) {
      options.logger.warn({ ...errorSummary(error) }, 'line: the early reply failed; the answer is sent when ready');
    }
  };
  // A restart after the early reply: the token is spent, the final reply pushes the rest.
  const replied = readEarlyReply(start.earlier) !== undefined;
  const cancel =
    replied || options.replyBy === undefined
      ? undefined
      : options.scheduler.schedule(Math.max(0, options.replyBy - earlyReplyLeadMs - options.now()), () => {
          sending = replyNow();
        });
  return {
    show: (text) => {
      shown = text;
      status = undefined;
    },
    status: (step: TurnStep) => {
      status = stepStatusText(step, options.language);
    },
    end: async () => {
      cancel?.();
      await sending;
    },
  };
}
