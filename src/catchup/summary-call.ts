import { thaiDigitsToAscii } from '../shared/thai-digits.js';
import type { InboundMessage } from '../shared/types.js';
import type { SummarySpan } from './summary-request.js';

// "แสง สรุปให้หน่อยว่าคุยอะไรกัน", "สรุปแชทวันนี้", "สรุปที่คุยกัน 3 ชั่วโมงที่ผ่านมา", "what did I miss?": a catch-up
// asked for in words, addressed to the bot, recognized by code — in a group with catch-up on, it is /summary, not a
// question for the model (which would see only the last few messages). "สรุปเอกสารนี้", "สรุปข่าววันนี้" or a
// summary of a quoted message are questions like any other.

const maxChars = 200;
const thaiSummaryVerbs = ['สรุป', 'ย่อ'];
/** What the chat is called: a summary verb with one of these is about the group's talk. */
const thaiChatWords = ['คุย', 'แชท', 'แชต', 'ข้อความในกลุ่ม', 'ในกลุ่ม', 'ในห้อง', 'พลาด', 'ตกข่าว', 'ข้างบน', 'เมื่อกี้', 'ที่ผ่านมา'];
const thaiMissedPhrases = ['พลาดอะไรไป', 'พลาดอะไรบ้าง', 'ตกข่าวอะไร', 'คุยอะไรกันบ้าง', 'คุยอะไรกันไป'];
const englishPatterns = [
  /\bwhat did i miss\b/,
  /\bcatch me up\b/,
  /\b(?:summari[sz]e|recap|sum up)\b[^.?!]{0,40}\b(?:chat|conversation|discussion|group|messages|thread)\b/,
];
const hoursPattern = /(\d{1,3})\s{0,3}(?:ชั่วโมง|ชม\.?|hours?|hrs?)/;

/** Whether the text asks for a catch-up of the group's talk. */
export function asksForCatchUp(text: string): boolean {
  const lower = text.slice(0, maxChars).toLowerCase();
  if (thaiMissedPhrases.some((phrase) => lower.includes(phrase))) return true;
  if (thaiSummaryVerbs.some((verb) => lower.includes(verb)) && thaiChatWords.some((word) => lower.includes(word))) return true;
  return englishPatterns.some((pattern) => pattern.test(lower));
}

/** The span the words name: "3 ชั่วโมง" → the last 3 hours; "วันนี้" / "today" → today; else since the asker's last message. */
export function spanOfCall(text: string): SummarySpan {
  const lower = thaiDigitsToAscii(text.slice(0, maxChars)).toLowerCase();
  const hours = hoursPattern.exec(lower)?.[1];
  if (hours !== undefined && Number(hours) >= 1) return { kind: 'hours', hours: Number(hours) };
  if (lower.includes('วันนี้') || /\btoday\b/.test(lower)) return { kind: 'today' };
  return { kind: 'since-me' };
}

/** The `/summary` words for a message that asks for a catch-up (a quoted message is its own subject), else undefined. */
export function summaryCallWords(message: Pick<InboundMessage, 'text' | 'quoted'>): string[] | undefined {
  if (message.quoted || !asksForCatchUp(message.text)) return undefined;
  const span = spanOfCall(message.text);
  return span.kind === 'hours' ? [`${span.hours}h`] : span.kind === 'today' ? ['today'] : [];
}
