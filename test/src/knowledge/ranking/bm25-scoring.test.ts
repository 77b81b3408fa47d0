import { describe, expect, it } from 'vitest';
import { bm25Score, inverseDocumentFrequency, occurrences } from '../../../../src/knowledge/ranking/bm25-scoring.js';

describe('occurrences', () => {
  it.each([
    ['คืน เงิน คืน สินค้า', 'คืน', 2],
    ['คืนเงิน คืน', 'คืน', 1],
    ['a a a', 'a', 3],
    ['aa a aa', 'aa', 2],
    ['', 'a', 0],
    ['เงิน', 'เงิน', 1],
  ])('%j has %j %i times as a whole token', (tokens, token, expected) => {
    expect(occurrences(tokens, token)).toBe(expected);
  });
});

describe('BM25 with the Lucene IDF', () => {
  it('keeps the IDF positive even when every chunk has the term (FTS5 clamps it to ~0)', () => {
    expect(inverseDocumentFrequency(1, { chunks: 1, averageTokens: 10 })).toBeGreaterThan(0.2);
    expect(inverseDocumentFrequency(1, { chunks: 100, averageTokens: 10 })).toBeGreaterThan(inverseDocumentFrequency(50, { chunks: 100, averageTokens: 10 }));
  });

  it('rewards term frequency with saturation, shorter chunks, and title matches', () => {
    const statistics = { chunks: 10, averageTokens: 4 };
    const terms = [{ term: 'คืน', chunks: 2 }];
    const once = bm25Score(terms, { tokens: 'คืน เงิน ได้ ไหม', tokenCount: 4, titleTokens: new Set() }, statistics);
    const twice = bm25Score(terms, { tokens: 'คืน เงิน คืน ไหม', tokenCount: 4, titleTokens: new Set() }, statistics);
    const longer = bm25Score(terms, { tokens: 'คืน เงิน ได้ ไหม ครับ ผม ขอ ถาม', tokenCount: 8, titleTokens: new Set() }, statistics);
    const titled = bm25Score(terms, { tokens: 'คืน เงิน ได้ ไหม', tokenCount: 4, titleTokens: new Set(['คืน']) }, statistics);
    const absent = bm25Score(terms, { tokens: 'เงิน ได้', tokenCount: 2, titleTokens: new Set() }, statistics);
    expect(twice).toBeGreaterThan(once);
    expect(twice).toBeLessThan(2 * once);
    expect(longer).toBeLessThan(once);
    expect(titled).toBeGreaterThan(once);
    expect(absent).toBe(0);
  });
});
