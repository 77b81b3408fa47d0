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
  return [...scores]
    .map(([id, score]) => ({ id, score }))
    .sort((left, right) => right.score - left.score || left.id - right.id);
}
