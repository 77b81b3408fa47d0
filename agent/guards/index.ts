import { dlpNotice, scanForCredentials } from '../../src/dlp/scan.js';
import type { Citation, GuardEvent, TurnRecord } from '../../src/shared/types.js';
import { checkRefusal } from './refusal.js';
import { applySources } from './sources.js';
import { answerFromToolLog } from './tool-log-answer.js';
import { markUnsupportedNumbers } from './unsupported-numbers.js';

export { answerFromToolLog } from './tool-log-answer.js';

// The post-answer pipeline (DESIGN §7), run by the turn after the write-claim step, in this order:
// refusal replacement → unsupported numbers → sources → DLP (last, on the final text). Pure over the record.

export interface GuardedAnswer {
  text: string;
  citations: Citation[];
  events: GuardEvent[];
  /** DLP replaced the whole answer: send no files either. */
  blocked: boolean;
}

export function runAnswerGuards(record: TurnRecord, options: { secrets: readonly string[] }): GuardedAnswer {
  const events: GuardEvent[] = [];
  let text = record.finalText;

  const refusal = checkRefusal(record);
  if (refusal.action === 'rewrite') {
    text = answerFromToolLog(record);
    events.push({ guard: 'refusal', action: 'rewrite', reason: refusal.reason });
  }

  const support = [...record.toolCalls.map((call) => call.result), ...record.contextPassages, ...record.earlierTurns, record.question, record.dateLine];
  const numbers = markUnsupportedNumbers(text, support, record.language);
  if (numbers.unsupported > 0) {
    events.push({
      guard: 'numbers',
      action: 'rewrite',
      reason: `${numbers.unsupported} of ${numbers.checked} figure(s) not found in tool results, question or date line: marked unconfirmed`,
    });
  }
  text = numbers.text;

  const sources = applySources(text, record);
  events.push(...sources.events);
  text = sources.text;

  // Scan what the model wrote as well as the rewritten text: a rewrite (a figure marked unconfirmed inside a
  // token) must never hide a credential from the scan.
  const scan = scanForCredentials(`${record.finalText}\n${text}`, { secrets: options.secrets });
  if (scan.found) {
    events.push({ guard: 'dlp', action: 'block', reason: `credential in the answer (${scan.kinds.join(', ')}): whole answer blocked` });
    return { text: dlpNotice(record.language), citations: [], events, blocked: true };
  }
  return { text, citations: sources.citations, events, blocked: false };
}
