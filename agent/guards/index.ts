import { dlpNotice, scanForCredentials } from '../../src/dlp/scan.js';
import type { Citation, GuardEvent, Language, TurnRecord } from '../../src/shared/types.js';
import { answerWhenEmpty } from './empty-answer.js';
import { checkLanguageDrift, languageRetryOutcome, type LanguageRetryOutcome, type LanguageVerdict } from './language-drift.js';
import { checkRefusal } from './refusal.js';
import { applySources, sourcesBody } from './sources.js';
import { answerFromToolLog } from './tool-log-answer.js';
import { markUnsupportedNumbers } from './unsupported-numbers.js';
import { outputCutNote } from './output-cut-note.js';
import { visionNote } from './vision-note.js';
import type { UnreadReason } from '../turn-images.js';
import { checkWriteClaim, writeClaimFailure } from './write-claim.js';

// The one order of the post-answer steps (docs/architecture.md, "Turn loop and guard order"):
//   1. write-claim verdict, after each answer of the loop (the turn acts on it: one retry, or the failure text);
//   2. language drift, on the answer after the write-claim step (the turn acts on it: one retry without tools, then
//      the answer in the expected language, or a notice above the original);
//   3. on the finished record: empty answer filled → refusal replacement → unsupported numbers → sources →
//      vision note and output-cut note (code's own text, around the answer) → DLP (last, on the final text).
// Pure over the record; the turn applies the result, and nothing after step 3 edits the answer.

export type WriteClaimStep =
  { action: 'pass' } | { action: 'retry'; instruction: string; event: GuardEvent } | { action: 'failed'; text: string; events: GuardEvent[] };

/** `canRetry` is false when the model has no tools (it could not call write_file); the retry happens once. */
export function writeClaimStep(record: TurnRecord, state: { retried: boolean; canRetry: boolean }): WriteClaimStep {
  const claim = checkWriteClaim(record);
  if (claim.action === 'pass' || (!state.retried && state.canRetry)) return claim;
  const failure = writeClaimFailure(record);
  // After a retry its claim event is recorded already.
  return { action: 'failed', text: failure.text, events: state.retried ? [failure.event] : [claim.event, failure.event] };
}

/**
 * Whether the answer drifted from the question's language, or with `fixed` (the space chose record.language) from
 * that one (the turn skips it after a write-claim failure text).
 */
export function languageStep(record: TurnRecord, options: { fixed?: boolean } = {}): LanguageVerdict {
  return checkLanguageDrift(record, options.fixed ?? false);
}

/** After the one retry, whose answer is in record.finalText: keep it, or the notice above the original. */
export function languageRetryStep(record: TurnRecord, retry: { original: string; expected: Language }): LanguageRetryOutcome {
  return languageRetryOutcome(record.finalText, retry.original, retry.expected);
}

export interface GuardedAnswer {
  /** What the user receives. */
  text: string;
  /** The answer as recorded and kept in history: `text` without the vision note, which concerns this reply only. */
  answer: string;
  citations: Citation[];
  events: GuardEvent[];
  /** DLP replaced the whole answer: send no files either. */
  blocked: boolean;
}

export interface AnswerGuardOptions {
  secrets: readonly string[];
  /** Images of the turn the model neither saw nor got text from, each with why. */
  unreadImages?: readonly UnreadReason[];
}

/**
 * The most answer text the pipeline reads (MODEL_MAX_ANSWER_CHARS cannot be set higher): a longer text (a tool-log
 * answer, a caller's own record) is cut here first, so every step's work is bounded by this length.
 */
export const maxGuardedChars = 200_000;

/** The first maxGuardedChars UTF-16 units, never ending in half a surrogate pair. */
function cutAtBound(text: string): string {
  const last = text.charCodeAt(maxGuardedChars - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? maxGuardedChars - 1 : maxGuardedChars);
}

/** What figures may rest on: this turn's tool results and passages, earlier checked turns, the question, the date line. */
function numberSupport(record: TurnRecord): string[] {
  return [...record.toolCalls.map((call) => call.result), ...record.contextPassages, ...record.earlierTurns, record.question, record.dateLine];
}

/**
 * What a streamed answer shows of `record.finalText`, the part agent/streaming/ released of an answer still being
 * written: the numbers and sources steps of runAnswerGuards, without what only the end adds (the source list, the
 * cut note), the vision note in front; undefined when the DLP finds a credential. Refusal, language and write-claim
 * are decided before anything is shown (agent/streaming/opening.ts).
 */
export function previewAnswer(record: TurnRecord, options: AnswerGuardOptions): string | undefined {
  const numbers = markUnsupportedNumbers(record.finalText, numberSupport(record), record.language);
  const { body } = sourcesBody(numbers.text, record);
  if (scanForCredentials(`${record.finalText}\n${body}`, { secrets: options.secrets }).found) return undefined;
  const note = visionNote(options.unreadImages ?? [], record.language);
  return note ? `${note.text}\n\n${body}` : body;
}

export function runAnswerGuards(record: TurnRecord, options: AnswerGuardOptions): GuardedAnswer {
  const events: GuardEvent[] = [];
  const whole = answerWhenEmpty(record);
  const tooLong = whole.length > maxGuardedChars;
  const cutEvent: GuardEvent = {
    guard: 'output-limit',
    action: 'rewrite',
    reason: `answer of ${whole.length} characters cut to ${maxGuardedChars} before the guards`,
  };
  if (tooLong) events.push(cutEvent);
  const finished: TurnRecord = {
    ...record,
    finalText: tooLong ? cutAtBound(whole) : whole,
    guardEvents: tooLong ? [...record.guardEvents, cutEvent] : record.guardEvents,
  };
  let text = finished.finalText;

  const refusal = checkRefusal(finished);
  if (refusal.action === 'rewrite') {
    text = answerFromToolLog(finished);
    events.push({ guard: 'refusal', action: 'rewrite', reason: refusal.reason });
  }

  const numbers = markUnsupportedNumbers(text, numberSupport(finished), finished.language);
  if (numbers.unsupported > 0) {
    events.push({
      guard: 'numbers',
      action: 'rewrite',
      reason: `${numbers.unsupported} of ${numbers.checked} figure(s) not found in tool results, question or date line: marked unconfirmed`,
    });
  }
  text = numbers.text;

  const sources = applySources(text, finished);
  events.push(...sources.events);
  text = sources.text;

  const note = visionNote(options.unreadImages ?? [], finished.language);
  if (note) events.push(note.event);
  const cut = outputCutNote(finished, finished.language);
  const withNote = (answer: string): string => {
    const noted = note ? `${note.text}\n\n${answer}` : answer;
    return cut ? `${noted}\n\n${cut}` : noted;
  };

  // Scan what the model wrote as well as the rewritten text: a rewrite (a figure marked unconfirmed inside a
  // token) must never hide a credential from the scan. The note is code's own text and stays in front.
  const scan = scanForCredentials(`${finished.finalText}\n${text}`, { secrets: options.secrets });
  if (scan.found) {
    events.push({ guard: 'dlp', action: 'block', reason: `credential in the answer (${scan.kinds.join(', ')}): whole answer blocked` });
    const notice = dlpNotice(finished.language);
    return { text: withNote(notice), answer: notice, citations: [], events, blocked: true };
  }
  return { text: withNote(text), answer: text, citations: sources.citations, events, blocked: false };
}
