import { say, type Localized } from '../../src/shared/i18n.js';
import type { TurnRecord } from '../../src/shared/types.js';
import { answerFromToolLog } from './tool-log-answer.js';

// No usable answer (a cut stream, an empty answer, a blocked repeat): answered from the tool log, or apologized for
// when no tool ran. The step limit is left to the refusal guard, which answers from the tool log and records it.

const cutApology: Localized = {
  th: 'ขออภัย คำตอบของโมเดลผิดปกติจึงถูกตัดไว้ กรุณาถามใหม่อีกครั้ง หรือถามให้เฉพาะเจาะจงขึ้น',
  en: 'Sorry, the model produced a broken answer, so it was cut. Please ask again, or more specifically.',
};

/** The answer text the later guards start from. */
export function answerWhenEmpty(record: TurnRecord): string {
  if (record.finalText !== '' || record.stopReason === 'step-limit') return record.finalText;
  return record.toolCalls.length === 0 ? say(cutApology, record.language) : answerFromToolLog(record);
}
