import { say, type Localized } from '../shared/i18n.js';
import { escapeMarkdown } from '../shared/markdown.js';
import type { InboundMessage } from '../shared/types.js';
import { cutAtGrapheme } from '../shared/grapheme-cut.js';
import { latenessOf, type LateSettings } from './late-answer.js';
import { sentAtText } from '../shared/sent-at-text.js';
import type { MessageReplies } from './reply-journal.js';

// Past MISSED_MESSAGE_AGE_MS a question gets no turn: the first such message of a conversation gets one reply that
// lists it and the stale questions waiting behind it, and asks the user to ask again (docs/architecture.md, "Work").
// Exactly once, through the queue's reply journal: each message behind it is first marked answered by an empty
// stored reply (`cover`), then this message's reply is stored as its answer. A crash before that store runs this
// again and lists the covered ones too (a later message can be answered only by this cover: a conversation runs in
// order); after it, the stored reply is delivered as stored and each covered message completes without a send.

/** Messages looked at behind the first one; a backlog longer than that gets one more list when its turn comes. */
const lookAhead = 200;
const listed = 10;
const questionChars = 80;

const missedText: Localized = {
  th: 'ขออภัยครับ ข้อความเหล่านี้ส่งมานานแล้วและยังไม่ได้ตอบ:\n\n{list}\n\nถ้ายังต้องการคำตอบอยู่ ช่วยถามใหม่อีกครั้งนะครับ',
  en: 'Sorry, I missed these messages, sent a while ago:\n\n{list}\n\nIf they still matter, please ask again.',
};
const noWords: Localized = { th: '(รูปหรือไฟล์)', en: '(an image or file)' };
const moreText: Localized = { th: '- …และอีก {count} ข้อความ', en: '- …and {count} more' };

export interface MissedOptions {
  settings: LateSettings;
  /** Whether a waiting message would run a turn (a question to the bot, not a command or group chatter). */
  isQuestion(message: InboundMessage): boolean;
}

/** One line of the list: when, who (in a group), and the question shortened, as plain text. */
function itemOf(message: InboundMessage, settings: LateSettings, now: number): string {
  const when = sentAtText(message.receivedAt, settings.language, settings.timeZone, now);
  const who = message.chatKind === 'group' ? ` ${escapeMarkdown(message.sender.name)}` : '';
  const words = message.text.replace(/\s+/g, ' ').trim();
  const question = words === '' ? say(noWords, settings.language) : escapeMarkdown(cutAtGrapheme(words, questionChars));
  return `- ${when}${who}: ${question}`;
}

/**
 * Covers the stale questions waiting behind `message` (durably, before returning) and returns the text of the one
 * reply that answers them all; the caller stores it as `message`'s final reply.
 */
export async function missedMessagesText(message: InboundMessage, replies: MessageReplies, options: MissedOptions): Promise<string> {
  const { settings } = options;
  const now = settings.now();
  const behind = (await replies.later(lookAhead)).filter(
    (later) => later.answered || (options.isQuestion(later.message) && latenessOf(later.message, settings, now) === 'missed'),
  );
  for (const later of behind) if (!later.answered) await later.cover();
  const all = [message, ...behind.map((later) => later.message)];
  const lines = all.slice(0, listed).map((missed) => itemOf(missed, settings, now));
  if (all.length > listed) lines.push(say(moreText, settings.language, { count: all.length - listed }));
  return say(missedText, settings.language, { list: lines.join('\n') });
}
