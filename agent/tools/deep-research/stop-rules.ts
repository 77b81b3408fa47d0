import { jaccard, textTrigrams } from '../web-search/trigrams.js';
import { maxFacts } from './fact-store.js';
import type { ResearchStopReason } from './types.js';

// The research loop's stop rules as pure predicates, so each one is tested alone and the loop stays a plain loop.

export const maxRounds = 4;
export const minNewFactsPerRound = 3;
/** Character-trigram Jaccard at or above which a follow-up query repeats an earlier one. */
export const repeatedQuerySimilarity = 0.6;

export interface RoundSummary {
  round: number;
  /** Results this round that no earlier round had returned. */
  newResults: number;
  newFacts: number;
  totalFacts: number;
}

/** Checked right after a round's facts are in; null means "look for gaps". */
export function stopAfterRound(summary: RoundSummary): ResearchStopReason | null {
  if (summary.newResults === 0) return 'empty-round';
  if (summary.totalFacts >= maxFacts) return 'fact-limit';
  if (summary.newFacts < minNewFactsPerRound) return 'few-new-facts';
  if (summary.round >= maxRounds) return 'round-limit';
  return null;
}

export function isRepeatedQuery(query: string, earlier: readonly string[]): boolean {
  const grams = textTrigrams(query);
  return earlier.some((previous) => jaccard(grams, textTrigrams(previous)) >= repeatedQuerySimilarity);
}

/** Follow-ups that are not repeats of earlier queries (nor of each other). */
export function freshQueries(candidates: readonly string[], earlier: readonly string[]): string[] {
  const fresh: string[] = [];
  for (const query of candidates) {
    if (!isRepeatedQuery(query, [...earlier, ...fresh])) fresh.push(query);
  }
  return fresh;
}
