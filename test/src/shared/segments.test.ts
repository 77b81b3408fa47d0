import { describe, expect, it } from 'vitest';
import { segmentsOf } from '../../../src/shared/segments.js';

// Windowed segmentation must give exactly what one pass over the whole text gives (V8's segmenter is quadratic in
// the length of its input, so every long text in the project goes through segmentsOf).

const sample = 'ร้านเปิดกี่โมงครับ วันเสาร์เปิด 9:00–17:00 น. Open Saturday 9am. ราคา ๑๒๐ บาท น้ำแข็งใส 👍🏽 ';

function onePass(segmenter: Intl.Segmenter, text: string) {
  return Array.from(segmenter.segment(text), ({ segment, index, isWordLike }) =>
    isWordLike === undefined ? { segment, index } : { segment, index, isWordLike },
  );
}

describe('segmentsOf', () => {
  for (const granularity of ['grapheme', 'word', 'sentence'] as const) {
    it(`matches one pass at ${granularity} granularity across many window edges`, () => {
      const segmenter = new Intl.Segmenter('th', { granularity });
      const text = sample.repeat(60); // ~5,000 characters: four windows and their edges
      expect(Array.from(segmentsOf(segmenter, text))).toEqual(onePass(segmenter, text));
    });
  }

  it('covers the whole text with no gap or overlap', () => {
    const segmenter = new Intl.Segmenter('th', { granularity: 'word' });
    const text = 'ก'.repeat(3000) + sample;
    expect(Array.from(segmentsOf(segmenter, text), (part) => part.segment).join('')).toBe(text);
  });
});
