import { jaccard, textTrigrams } from '../web-search/trigrams.js';
import { normalizeForMatch } from '../web-search/thai-text.js';
import { extractFigures } from './figures.js';
import type { ExtractedFact } from './fact-extraction.js';
import type { Fact } from './types.js';

// The facts gathered so far, deduplicated: the same statement (near-identical wording and the same
// figures) is kept once. Statements that differ only in a figure are kept — they may be a conflict.

export const maxFacts = 50;
const sameStatement = 0.8;

interface StoredFact {
  fact: Fact;
  normalized: string;
  grams: Set<string>;
  figures: string;
}

export class FactStore {
  private readonly stored: StoredFact[] = [];

  get facts(): Fact[] {
    return this.stored.map((entry) => entry.fact);
  }

  get size(): number {
    return this.stored.length;
  }

  /** Adds the new facts (up to the overall cap) and returns how many were new. */
  add(extracted: readonly ExtractedFact[], round: number): number {
    let added = 0;
    for (const candidate of extracted) {
      if (this.stored.length >= maxFacts) break;
      const normalized = normalizeForMatch(candidate.text, 400);
      const grams = textTrigrams(normalized);
      const figures = extractFigures(candidate.text).join(' ');
      const duplicate = this.stored.some(
        (entry) => entry.normalized === normalized || (entry.figures === figures && jaccard(entry.grams, grams) >= sameStatement),
      );
      if (duplicate) continue;
      this.stored.push({ fact: { ...candidate, round }, normalized, grams, figures });
      added += 1;
    }
    return added;
  }
}
