import type { InboundMessage } from '../shared/types.js';
import { parseReminderRequest } from './when/reminder-request.js';

// A reminder asked for in words, addressed to the bot ("แสง เตือนประชุมพรุ่งนี้ 9 โมง", "remind us at 3pm to…"):
// recognized by code before any model call, so a 2B model never has to schedule anything. What counts as a request
// is src/reminders/when/reminder-request.ts's: a reminder verb with a time, or one opening the message; "คำเตือน",
// "เตือนใจตัวเอง…", "remind me what you said" and the like go to the model like any question.

const honorifics = ['พี่', 'น้อง', 'คุณ', 'ท่าน'];
const vocatives = ['ครับ', 'คับ', 'ค่ะ', 'คะ', 'จ๋า', 'จ้า'];

/** `text` without the bot's name called at its start ("พี่แสงครับ ", "Saeng, "). */
export function withoutLeadingName(text: string, names: readonly string[]): string {
  let rest = text.trimStart();
  const lower = rest.toLowerCase();
  const honorific = honorifics.find((word) => lower.startsWith(word)) ?? '';
  const name = names.map((candidate) => candidate.toLowerCase()).find((candidate) => candidate && lower.startsWith(candidate, honorific.length));
  if (!name) return rest;
  rest = rest.slice(honorific.length + name.length);
  // A Latin name must end as a word ("Saengkeaw" is someone else).
  if (/^[A-Za-z0-9]/.test(rest) && /[A-Za-z0-9]$/.test(name)) return text.trimStart();
  const vocative = vocatives.find((word) => rest.startsWith(word));
  if (vocative) rest = rest.slice(vocative.length);
  return rest.replace(/^[\s,.:!]{0,10}/, '');
}

export interface ReminderCallContext {
  names: readonly string[];
  now: Date;
  timeZone: string;
}

/** The text for `/remind` when the message asks for a reminder with a time (or one to ask about); else undefined. */
export function reminderRequestText(message: Pick<InboundMessage, 'text'>, context: ReminderCallContext): string | undefined {
  const text = withoutLeadingName(message.text, context.names);
  // A request is a reminder verb with a time, or one opening the message ("เตือนส่งรายงานด้วย": /remind asks when).
  return parseReminderRequest(text, { now: context.now, timeZone: context.timeZone }) ? text : undefined;
}
