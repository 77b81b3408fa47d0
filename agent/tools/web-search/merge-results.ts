import { oneLine } from './thai-text.js';
import type { Candidate, RawResult, ScoredCandidate } from './types.js';
import { cleanUrl, hostKey, urlKey } from '../../../src/shared/url-normalize.js';

// Merging the variants' result lists: round-robin interleave (a1, b1, c1, a2 …), duplicates merged by
// normalized URL and by identical title + snippet, and at most N results per domain.

export const maxTitleLength = 200;
export const maxSnippetLength = 500;

export interface MergeOutcome {
  candidates: Candidate[];
  /** Results that were dropped as duplicates or for an unusable URL. */
  duplicates: number;
  invalid: number;
}

function interleave(lists: readonly (readonly RawResult[])[]): RawResult[] {
  const merged: RawResult[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let index = 0; index < longest; index += 1) {
    for (const list of lists) {
      const item = list[index];
      if (item) merged.push(item);
    }
  }
  return merged;
}

export function mergeResults(lists: readonly (readonly RawResult[])[]): MergeOutcome {
  const byKey = new Map<string, Candidate>();
  const fingerprints = new Set<string>();
  let duplicates = 0;
  let invalid = 0;
  for (const result of interleave(lists)) {
    const url = cleanUrl(result.url);
    const key = urlKey(result.url);
    if (!url || !key) {
      invalid += 1;
      continue;
    }
    const title = oneLine(result.title, maxTitleLength);
    const snippet = oneLine(result.snippet, maxSnippetLength);
    const existing = byKey.get(key);
    if (existing) {
      duplicates += 1;
      existing.variantHits += 1;
      if (snippet.length > existing.snippet.length) existing.snippet = snippet;
      if (existing.title === '') existing.title = title;
      if (!existing.publishedAt && result.publishedAt) existing.publishedAt = result.publishedAt;
      continue;
    }
    const fingerprint = `${title.toLowerCase()}\u0000${snippet.toLowerCase()}`;
    if (title !== '' && fingerprints.has(fingerprint)) {
      duplicates += 1;
      continue;
    }
    fingerprints.add(fingerprint);
    const candidate: Candidate = {
      title,
      url,
      snippet,
      key,
      host: hostKey(new URL(url).hostname),
      variantHits: 1,
      rank: byKey.size,
      ...(result.publishedAt ? { publishedAt: result.publishedAt } : {}),
    };
    byKey.set(key, candidate);
  }
  return { candidates: [...byKey.values()], duplicates, invalid };
}

/** Keeps the first `perDomain` results of each host, in the given (ranked) order. */
export function capPerDomain<T extends Candidate>(ranked: readonly T[], perDomain: number): { kept: T[]; dropped: number } {
  const counts = new Map<string, number>();
  const kept: T[] = [];
  for (const candidate of ranked) {
    const count = counts.get(candidate.host) ?? 0;
    if (count >= perDomain) continue;
    counts.set(candidate.host, count + 1);
    kept.push(candidate);
  }
  return { kept, dropped: ranked.length - kept.length };
}

/** Best first: overlap score, then how many variants found it, then merged position. */
export function byRelevance(left: ScoredCandidate, right: ScoredCandidate): number {
  return right.score - left.score || right.variantHits - left.variantHits || left.rank - right.rank;
}
