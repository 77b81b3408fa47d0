import { pick, type Localized } from '../../src/shared/i18n.js';
import type { Language, TurnRecord } from '../../src/shared/types.js';

// A model step whose output reached one of our bounds (length or time: see OutputLimits) was closed there; the
// answer is what came before, guarded like any other, and the reader is told it was cut.

const note: Localized = {
  th: '(คำตอบนี้ยาวหรือใช้เวลานานเกินกำหนด จึงถูกตัดไว้เพียงเท่านี้)',
  en: '(This answer ran past the length or time limit, so it was cut here.)',
};

export function outputCutNote(record: TurnRecord, language: Language): string | undefined {
  return record.guardEvents.some((event) => event.guard === 'output-limit') ? pick(note, language) : undefined;
}
