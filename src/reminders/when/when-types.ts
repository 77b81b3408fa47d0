// The vocabulary of reminder times (issue 31). Times are resolved by code, never by the model, in the group's IANA
// time zone; what cannot be resolved without a guess is reported as ambiguous so the bot asks back.

export type Recurrence = { kind: 'daily' } | { kind: 'weekdays' } /* Mon–Fri */ | { kind: 'weekly'; weekday: number /* 0=Sunday…6 */ };

/**
 * Why a time cannot be resolved: 'part-of-day' "3 โมง", "at 7" (am or pm?); 'no-time' a day without a time of day
 * ("พรุ่งนี้", "every Monday"); 'no-date-or-time' a period too vague to name a day ("สัปดาห์หน้า", "next week",
 * "ทุกอาทิตย์"); 'invalid-date' a day that does not exist ("31 ก.พ."); 'weekday-mismatch' a weekday said with a date
 * it does not fall on ("วันอังคารที่ 14 ธ.ค." when the 14th is a Monday): which one was meant is asked.
 */
export type AmbiguityReason = 'part-of-day' | 'no-time' | 'no-date-or-time' | 'invalid-date' | 'weekday-mismatch';

/** UTF-16 offsets into the text given. */
export interface TextSpan {
  start: number;
  end: number;
}

export type WhenResult =
  /** The first occurrence, strictly after now. */
  | { kind: 'at'; at: Date; recurrence?: Recurrence; span: TextSpan }
  /** Candidates (ascending) when the readings are known, e.g. 03:00 and 15:00; may be empty. */
  | { kind: 'ambiguous'; reason: AmbiguityReason; span: TextSpan; candidates: Date[] }
  /** An explicit day (and time) already gone: "เมื่อวาน", "1 ม.ค. 2568 9:00". */
  | { kind: 'past'; at: Date; span: TextSpan }
  | { kind: 'none' };

export interface WhenContext {
  now: Date;
  timeZone: string;
}
