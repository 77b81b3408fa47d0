// Reciprocal rank fusion (Cormack et al., 2009): combines rankings whose scores are not comparable
// (BM25 and cosine similarity) using ranks only. k = 60 is the constant from the paper.

export const reciprocalRankConstant = 60;

export interface Fused {
  id: number;
  score: number;
}

/** Each ranking lists ids best first; an id missing from a ranking just gets nothing from it. */
export function reciprocalRankFusion(rankings: readonly (readonly number[])[], k = reciprocalRankConstant): Fused[] {
  const scores = new Map<number, number>();
  for (const ranking of rankings) {
    ranking.forEach((id, rank) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank + 1)));
  }
  return [...scores].map(([id, score]) => ({ id, score })).sort((left, right) => right.score - left.score || left.id - right.id);
}

/**
 * Weighted sum of two score lists for the same items, each divided by its maximum, then multiplied by the first
 * list's maximum: the order follows the blend, the values stay on the first list's scale (BM25, comparable
 * between knowledge bases). `weight` is the second list's share, 0–1.
 */
export function normalizedScoreFusion(primary: readonly number[], secondary: readonly number[], weight: number): number[] {
  const best = (scores: readonly number[]): number => scores.reduce((maximum, score) => Math.max(maximum, score), 0);
  const bestPrimary = best(primary);
  const bestSecondary = best(secondary);
  return primary.map((score, index) => {
    const first = bestPrimary > 0 ? score / bestPrimary : 0;
    const second = bestSecondary > 0 ? (secondary[index] ?? 0) / bestSecondary : 0;
    return ((1 - weight) * first + weight * second) * (bestPrimary > 0 ? bestPrimary : 1);
  });
}
