import { say, type Localized } from '../shared/i18n.js';
import type { InboundMessage, Language } from '../shared/types.js';
import { sentAtText } from '../shared/sent-at-text.js';

// A stale backlog answered like a person would (docs/architecture.md, "Data flow of one message", Work): a message
// older than MAX_MESSAGE_AGE_MS when its turn starts is answered with a note that it is late; one older than
// MISSED_MESSAGE_AGE_MS gets no turn (missed-messages.ts). The age counts from the platform's own timestamp
// (`receivedAt`), so a message the platform held while the bot was down counts too.

export interface LateSettings {
  /** MAX_MESSAGE_AGE_MS: older is answered with the late note; 0 turns it off. */
  maxAgeMs: number;
  /** MISSED_MESSAGE_AGE_MS: older gets the one "missed, please ask again" reply; 0 turns it off. */
  missedAgeMs: number;
  /** BOT_TIMEZONE: when the message was sent is shown in it. */
  timeZone: string;
  language: Language;
  now: () => number;
}

export type Lateness = 'fresh' | 'late' | 'missed';

const lateNote: Localized = {
  th: '(ตอบช้า: ข้อความนี้ส่งมาเมื่อ {when})',
  en: '(Late answer: this message was sent on {when})',
};

/** Commands run as usual however old: "/reset" or "/kb add" means the same a day later. */
function isCommandText(text: string): boolean {
  return text.trimStart().startsWith('/');
}

/** How stale a message is at `now`; a command is always fresh. */
export function latenessOf(message: Pick<InboundMessage, 'receivedAt' | 'text'>, settings: LateSettings, now = settings.now()): Lateness {
  if (isCommandText(message.text)) return 'fresh';
  const age = now - message.receivedAt.getTime();
  if (settings.missedAgeMs > 0 && age > settings.missedAgeMs) return 'missed';
  if (settings.maxAgeMs > 0 && age > settings.maxAgeMs) return 'late';
  return 'fresh';
}

/**
 * The late note, put in front of the answer by code after the guards (plain text on a line of its own, so the
 * answer's Markdown is untouched) and after the agent wrote its history; in front of the live preview too, so a
 * streamed message only grows.
 */
export function lateNoteText(receivedAt: Date, settings: LateSettings): string {
  return say(lateNote, settings.language, { when: sentAtText(receivedAt, settings.language, settings.timeZone, settings.now()) });
}
