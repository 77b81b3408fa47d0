import { describe, expect, it } from 'vitest';
import { normalizedScoreFusion } from '../../../../src/knowledge/ranking/rank-fusion.js';
import { characterTrigrams, maxTrigramCharacters, trigramScores } from '../../../../src/knowledge/ranking/trigram-scoring.js';

describe('characterTrigrams', () => {
  it.each([
    ['abcd', ['abc', 'bcd']],
    ['ABC', ['abc']],
    ['ab cd', []],
    ['ab\tcd\u00a0ef\u3000gh', []],
    ['ab', []],
    ['', []],
    ['๑๒๓๔', ['123', '234']],
    ['ลูเทอร์', ['ลูเ', 'ูเท', 'เทอ', 'ทอร', 'อร์']],
    ['a\u200bbcd', ['bcd']],
  ])('%j → %j', (text, expected) => {
    expect(characterTrigrams(text)).toEqual(expected);
  });

  it('cuts only the first maxTrigramCharacters characters', () => {
    expect(characterTrigrams('a'.repeat(maxTrigramCharacters * 2))).toHaveLength(maxTrigramCharacters - 2);
  });
});

const bodies = (texts: readonly string[]) => texts.map((text) => ({ text, title: '' }));

describe('trigramScores', () => {
  it('matches a name that word segmentation cuts differently in the question and the passage', () => {
    // ICU cuts the glued passage as มาร์ ติ นลู เท อร์ and the spaced question as มาร์ ติน ลู เท อร์: ติน and ลู do not match.
    const [passage = 0, unrelated = 0] = trigramScores('มาร์ติน ลูเทอร์', bodies(['ในปี 1520 มาร์ตินลูเทอร์เขียนบทความ', 'นักวิจารณ์หลายคนวิจารณ์ภาพยนตร์']));
    expect(passage).toBeGreaterThan(0);
    expect(unrelated).toBe(0);
  });

  it('weighs trigrams rare among the candidates above common ones', () => {
    // "abc" is in every candidate, "xyz" in one: the candidate with xyz wins although both have one match.
    const scores = trigramScores('abc xyz', bodies(['abc qqq', 'abc rrr', 'xyz sss']));
    expect(scores[2]).toBeGreaterThan(scores[0] ?? 0);
    expect(scores[0]).toBeCloseTo(scores[1] ?? 0);
  });

  it('rewards repeated matches with saturation and prefers shorter texts', () => {
    const [once = 0, twice = 0, thrice = 0, longer = 0] = trigramScores('xyz', bodies(['xyz aaaa', 'xyz xyz', 'xyz xyz xyz', 'xyz aaaa bbbb cccc dddd']));
    expect(twice).toBeGreaterThan(once);
    expect(thrice - twice).toBeLessThan(twice - once);
    expect(once).toBeGreaterThan(longer);
  });

  it.each([
    ['a query without trigrams', 'ab', ['abc']],
    ['no candidates', 'abc', []],
    ['candidates without any query trigram', 'abc', ['xyz', '']],
  ])('scores 0 for %s', (_case, query, candidates) => {
    expect(trigramScores(query, bodies(candidates))).toEqual(candidates.map(() => 0));
  });

  it('counts a query trigram in the title like a title match in segmented BM25', () => {
    const [titled = 0, plain = 0] = trigramScores('ประกัน', [
      { title: 'ประกันสุขภาพ', text: 'ครอบคลุมค่ารักษา' },
      { title: 'notes.txt', text: 'ครอบคลุมค่ารักษา' },
    ]);
    expect(titled).toBeGreaterThan(0);
    expect(plain).toBe(0);
  });
});

describe('normalizedScoreFusion', () => {
  it.each([
    { primary: [4, 2], secondary: [0, 10], weight: 0, expected: [4, 2] },
    { primary: [4, 2], secondary: [0, 10], weight: 1, expected: [0, 4] },
    { primary: [4, 2], secondary: [0, 10], weight: 0.6, expected: [1.6, 3.2] },
    { primary: [4, 2], secondary: [0, 0], weight: 0.6, expected: [1.6, 0.8] },
    { primary: [0, 0], secondary: [1, 2], weight: 0.5, expected: [0.25, 0.5] },
    { primary: [], secondary: [], weight: 0.5, expected: [] },
  ])('$primary with $secondary at weight $weight → $expected', ({ primary, secondary, weight, expected }) => {
    const fused = normalizedScoreFusion(primary, secondary, weight);
    expect(fused).toHaveLength(expected.length);
    fused.forEach((score, index) => expect(score).toBeCloseTo(expected[index] ?? Number.NaN));
  });

  it('keeps the best score on the primary scale, so results of different knowledge bases still compare', () => {
    expect(Math.max(...normalizedScoreFusion([7.5, 3], [2, 1], 0.6))).toBeCloseTo(7.5);
  });
});
