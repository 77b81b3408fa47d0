import type { SlotStep } from './model-work-cache.js';

// The figures of `bench -- model-work`, from one entry per model request in the order the slot saw them.

export interface MeasuredRequest extends SlotStep {
  scenario: string;
  round: number;
  /** 1-based position within its scenario run. */
  request: number;
  kind: string;
}

export interface Largest {
  tokens: number;
  request: string;
  kind: string;
  cause: string;
}

export interface Figures {
  requests: number;
  promptTokens: number;
  processedTokens: number;
  /** 1 − processed / prompt over the requests that had a warm slot to meet (the first is left out). */
  reuse: number;
  largest: Largest | null;
}

const round3 = (value: number) => Math.round(value * 1000) / 1000;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** `warm`: the requests judged for reuse and the largest re-processing. */
export function figuresOf(all: readonly MeasuredRequest[], warm: readonly MeasuredRequest[]): Figures {
  const largest = warm.reduce<MeasuredRequest | undefined>((best, entry) => (best && best.processed >= entry.processed ? best : entry), undefined);
  const prompt = sum(warm.map((entry) => entry.total));
  return {
    requests: all.length,
    promptTokens: sum(all.map((entry) => entry.total)),
    processedTokens: sum(all.map((entry) => entry.processed)),
    reuse: prompt === 0 ? 0 : round3(1 - sum(warm.map((entry) => entry.processed)) / prompt),
    largest: largest
      ? { tokens: largest.processed, request: `${largest.scenario} #${largest.request} (round ${largest.round + 1})`, kind: largest.kind, cause: largest.cause }
      : null,
  };
}

export interface ScenarioFigures extends Figures {
  name: string;
  /** How the scenario's first request met the slot the scenario before left. */
  firstRequest: { processed: number; cause: string };
}

/** Per scenario (its rounds together): reuse over each run's requests after its first. */
export function scenarioFigures(measured: readonly MeasuredRequest[]): ScenarioFigures[] {
  const names = [...new Set(measured.map((entry) => entry.scenario))];
  return names.map((name) => {
    const own = measured.filter((entry) => entry.scenario === name);
    const first = own.find((entry) => entry.request === 1);
    return {
      name,
      ...figuresOf(
        own,
        own.filter((entry) => entry.request > 1),
      ),
      firstRequest: { processed: first?.processed ?? 0, cause: first?.cause ?? '' },
    };
  });
}
