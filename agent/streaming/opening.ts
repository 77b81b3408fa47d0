import type { TurnRecord } from '../../src/shared/types.js';
import { askedForCodeOnly, expectedAnswerLanguage } from '../guards/language-drift-request.js';
import { countScripts } from '../guards/language-drift-scripts.js';
import { checkWriteClaim } from '../guards/write-claim.js';

// Whether an answer being written may start to show (docs/architecture.md, "Streaming answers"). The guards that
// replace a whole answer decide on its opening, before anything is visible:
//   - language: the answer must already hold `settledLetters` letters of the expected language — then the language
//     step (which asks again only when the answer has fewer than 20 of them) cannot fire on the whole answer;
//   - refusal: a stock refusal or a step-budget sentinel is replaced only when short (≤ 400 characters): an answer
//     that could still be one waits until it is longer;
//   - write-claim: asked to save a file with no successful write_file, or an answer that claims one: never shown
//     (the turn retries or says nothing was saved).

export type OpeningVerdict = 'open' | 'wait' | 'never';

/** The language step's own threshold (guards/language-drift.ts `enoughExpected`). */
const settledLetters = 20;
/** Stock refusals and sentinels are replaced only up to this length (guards/refusal.ts `maxStockLength`). */
const refusalLength = 400;
const thaiScript = /[\u0e00-\u0e7f]/;
const sentinelWords = /steps|iteration|recursion|limit/i;

/** `languageFixed`: the space chose record.language, which the language step then expects (see expectedAnswerLanguage). */
export function openingVerdict(text: string, record: TurnRecord, languageFixed = false): OpeningVerdict {
  if (checkWriteClaim({ ...record, finalText: text }).action !== 'pass') return 'never';
  const trimmed = text.trim();
  const mayStillBeRefusal = trimmed.length <= refusalLength;
  if (mayStillBeRefusal && sentinelWords.test(trimmed)) return 'wait';
  if (mayStillBeRefusal && thaiScript.test(record.question) && !thaiScript.test(trimmed)) return 'wait';
  const expected = expectedAnswerLanguage(record.question, record.language, languageFixed);
  if (expected === undefined || askedForCodeOnly(record.question)) return trimmed === '' ? 'wait' : 'open';
  const counts = countScripts(trimmed);
  return (expected === 'th' ? counts.thai : counts.latin) >= settledLetters ? 'open' : 'wait';
}
