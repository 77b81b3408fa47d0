import { jaccard, textTrigrams } from '../web-search/trigrams.js';
import { extractFigures, withoutFigures } from './figures.js';
import type { Fact } from './types.js';

// Conflicting figures: two sources make the same statement (near-identical wording once figures are
// removed, the same number of figures) but exactly one figure differs — "ราคา 41,000 บาท" vs "ราคา 41,500 บาท".
// Two statements differing in several figures ("3.12 in 2023" vs "3.13 in 2024") are different facts.

export interface FigureConflict {
  first: Fact;
  second: Fact;
  firstFigure: string;
  secondFigure: string;
}

const sameWording = 0.6;
export const maxReportedConflicts = 3;

interface Analyzed {
  fact: Fact;
  figures: string[];
  grams: Set<string>;
}

function singleDifference(left: readonly string[], right: readonly string[]): number {
  if (left.length !== right.length || left.length === 0) return -1;
  let position = -1;
  for (let index = 0; index < left.length; index += 1) {
    if (left[index] === right[index]) continue;
    if (position >= 0) return -1;
    position = index;
  }
  return position;
}

export function findConflicts(facts: readonly Fact[]): FigureConflict[] {
  const analyzed: Analyzed[] = facts.map((fact) => ({
    fact,
    figures: extractFigures(fact.text),
    grams: textTrigrams(withoutFigures(fact.text)),
  }));
  const conflicts: FigureConflict[] = [];
  for (let left = 0; left < analyzed.length; left += 1) {
    for (let right = left + 1; right < analyzed.length; right += 1) {
      const first = analyzed[left];
      const second = analyzed[right];
      if (!first || !second || first.fact.url === second.fact.url) continue;
      const position = singleDifference(first.figures, second.figures);
      if (position < 0 || jaccard(first.grams, second.grams) < sameWording) continue;
      conflicts.push({
        first: first.fact,
        second: second.fact,
        firstFigure: first.figures[position] ?? '',
        secondFigure: second.figures[position] ?? '',
      });
      if (conflicts.length >= maxReportedConflicts) return conflicts;
    }
  }
  return conflicts;
}
