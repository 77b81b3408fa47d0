import { say, type Localized } from '../../src/shared/i18n.js';
import type { Language } from '../../src/shared/types.js';
import { splitForPlatform, type ReplyShape } from './index.js';

// How many messages one reply may become, the same on every platform (a model that never stops must not become
// hundreds of messages): past `maxMessagesPerReply`, the last message says so and the rest goes into a text file
// where the platform can send one (`capabilities.sendsFiles`: Telegram, Discord), else it is cut (LINE; the
// console, by characters); a platform that takes fewer messages per reply (`capabilities.maxMessagesPerReply`)
// is capped there. The
// rest is a part of the reply's own text, which the outbound DLP scan has already passed whole.

/** Messages one reply may become (LINE's reply token takes five too). */
export const maxMessagesPerReply = 5;
/** The console has no message size: its reply is cut at this many characters (five long messages). */
const consoleReplyChars = maxMessagesPerReply * 4_096;
const restFileName = 'answer-rest.txt';

const notes = {
  asFile: {
    th: '(คำตอบยาวเกิน {count} ข้อความ ส่วนที่เหลืออยู่ในไฟล์ {name} ที่แนบมา)',
    en: '(The answer is longer than {count} messages; the rest is in the attached file {name}.)',
  },
  cut: {
    th: '(คำตอบยาวเกิน {count} ข้อความ ส่วนที่เหลือถูกตัดออก ถามต่อเพื่อดูรายละเอียดเพิ่มได้)',
    en: '(The answer is longer than {count} messages; the rest was cut. Ask a follow-up for more.)',
  },
} satisfies Record<string, Localized>;

export interface CappedReply {
  /** The messages to send, in order: at most `maxMessagesPerReply`, the last one the note when capped. */
  parts: string[];
  /** Past the cap, where files can be sent: the rest of the answer as plain text, sent after the parts. */
  rest?: { name: string; text: string };
}

/** The agent's Markdown as at most `maxMessages` messages for the platform `shape` describes, and what did not fit. */
export function capReply(markdown: string, shape: ReplyShape, options: { language: Language; maxMessages?: number }): CappedReply {
  const maxMessages = Math.min(options.maxMessages ?? maxMessagesPerReply, shape.capabilities.maxMessagesPerReply);
  const restAsFile = shape.capabilities.sendsFiles;
  const { parts, text } = splitForPlatform(markdown, shape, maxMessages + 1);
  const overflow = parts[maxMessages - 1];
  if (parts.length <= maxMessages || overflow === undefined) return { parts: parts.map((part) => part.text) };
  const note = say(restAsFile ? notes.asFile : notes.cut, options.language, { count: maxMessages, name: restFileName });
  const kept = [...parts.slice(0, maxMessages - 1).map((part) => part.text), shape.renderer.serialize(note)];
  return restAsFile ? { parts: kept, rest: { name: restFileName, text: text.slice(overflow.start) } } : { parts: kept };
}

/** The console's reply Markdown, cut (with the note) past five long messages' worth of characters. */
export function capConsoleText(markdown: string, language: Language): string {
  if (markdown.length <= consoleReplyChars) return markdown;
  const last = markdown.charCodeAt(consoleReplyChars - 1);
  const cutAt = last >= 0xd800 && last <= 0xdbff ? consoleReplyChars - 1 : consoleReplyChars;
  return `${markdown.slice(0, cutAt)}\n\n${say(notes.cut, language, { count: maxMessagesPerReply })}`;
}
