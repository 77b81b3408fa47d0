import { isAdultContent } from './adult-filter.js';
import { hardReject } from './hard-rejects.js';
import { byRelevance, capPerDomain, mergeResults } from './merge-results.js';
import { isNavigationPage } from './navigation-filter.js';
import type { QueryIntent } from './query-intent.js';
import type { QueryPlan } from './query-variants.js';
import { containment, queryTrigrams, textTrigrams } from './trigrams.js';
import type { RawResult, RejectReason, ScoredCandidate } from './types.js';

// Layers 1 (merge, navigation/adult filters, domain cap) and 2 (trigram relevance, hard rejects):
// pure and deterministic, so they are cheap to test and to benchmark.

/** Minimum share of the query's trigrams that title + snippet must contain (tuned on the fixtures). */
export const relevanceThreshold = 0.3;
export const maxPerDomain = 2;

export interface LayerStats {
  fetched: number;
  duplicates: number;
  invalidUrls: number;
  navigation: number;
  adult: number;
  rejected: Partial<Record<RejectReason, number>>;
  domainCapped: number;
  kept: number;
}

export interface LexicalOutcome {
  kept: ScoredCandidate[];
  stats: LayerStats;
}

export function applyLexicalLayers(
  plan: QueryPlan,
  intent: QueryIntent,
  lists: readonly (readonly RawResult[])[],
  threshold = relevanceThreshold,
): LexicalOutcome {
  const merged = mergeResults(lists);
  const stats: LayerStats = {
    fetched: lists.reduce((sum, list) => sum + list.length, 0),
    duplicates: merged.duplicates,
    invalidUrls: merged.invalid,
    navigation: 0,
    adult: 0,
    rejected: {},
    domainCapped: 0,
    kept: 0,
  };
  const wanted = queryTrigrams(plan.simplified);
  const scored: ScoredCandidate[] = [];
  for (const candidate of merged.candidates) {
    // The cheap URL/word filters run first, so trigram sets are built only for survivors.
    if (isNavigationPage(candidate.url, candidate.title)) {
      stats.navigation += 1;
      continue;
    }
    if (isAdultContent(candidate.url, candidate.title, candidate.snippet)) {
      stats.adult += 1;
      continue;
    }
    const text = `${candidate.title} ${candidate.snippet}`;
    const reason = hardReject(intent, candidate.title, text);
    const score = reason ? 0 : containment(wanted, textTrigrams(text));
    const finalReason: RejectReason | null = reason ?? (score < threshold ? 'low-overlap' : null);
    if (finalReason) {
      stats.rejected[finalReason] = (stats.rejected[finalReason] ?? 0) + 1;
      continue;
    }
    scored.push({ ...candidate, score });
  }
  scored.sort(byRelevance);
  const capped = capPerDomain(scored, maxPerDomain);
  stats.domainCapped = capped.dropped;
  stats.kept = capped.kept.length;
  return { kept: capped.kept, stats };
}
