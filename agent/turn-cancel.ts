import { pick, type Localized } from '../src/shared/i18n.js';
import type { ModelFigures } from '../src/shared/model-figures.js';
import type { Language, ModelCapabilities } from '../src/shared/types.js';
import type { TurnOutcome } from '../src/shared/turn-runner.js';
import { failedRecord } from './turn-record.js';

// A turn the user cancelled (TurnInput.signal aborted): a short reply, and nothing of the turn in the history.

const cancelledText: Localized = { th: 'ยกเลิกแล้ว', en: 'Cancelled.' };

export function cancelledOutcome(
  turn: { conversationKey: string; question: string },
  language: Language,
  capabilities: ModelCapabilities,
  startedMs: number,
  modelFigures: ModelFigures = {},
): TurnOutcome {
  const text = pick(cancelledText, language);
  const record = failedRecord(turn, language, capabilities, text, modelFigures);
  record.stopReason = 'cancelled';
  record.totalMs = Math.round(performance.now() - startedMs);
  return { record, reply: { text, files: [] } };
}
