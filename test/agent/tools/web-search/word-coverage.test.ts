import { describe, expect, it } from 'vitest';
import { coversQuery, queryWords } from '../../../../agent/tools/web-search/word-coverage.js';
import { labelled, relevanceSplit } from '../../../../bench/model-work-relevance.js';

// Code keeps a result without the model's check only when title + snippet carry every content word of the question;
// on the labelled set (Thai questions, results marked relevant or not) that never keeps an irrelevant one.

describe('word coverage (the relevance check code decides)', () => {
  it('segments a Thai question into its content words, without how-to and stop words', () => {
    expect(queryWords('วิธีต่ออายุใบขับขี่ออนไลน์')).toEqual(['ต่อ', 'อายุ', 'ใบ', 'ขับขี่', 'ออนไลน์']);
    expect(queryWords('ราคาทองคำ')).toEqual(['ราคา', 'ทองคำ']);
  });

  it('keeps a result with every word, whatever the spacing; one about another city goes to the model', () => {
    const wanted = queryWords('ร้านกาแฟน่านั่งเชียงใหม่');
    expect(coversQuery(wanted, { title: '10 ร้านกาแฟ น่านั่ง ในเชียงใหม่', snippet: '' })).toBe(true);
    expect(coversQuery(wanted, { title: 'ร้านกาแฟน่านั่ง กรุงเทพ', snippet: 'มุมถ่ายรูปเยอะ' })).toBe(false);
    expect(coversQuery([], { title: 'อะไรก็ได้', snippet: '' })).toBe(false);
  });

  it('on the labelled set keeps no irrelevant result and leaves the model fewer results than it had', () => {
    const split = relevanceSplit(2026);
    expect(split.queries).toBe(labelled.length);
    expect(split.check.irrelevantKeptByWords).toBe(0);
    expect(split.check.keptByWords).toBeGreaterThan(0);
    expect(split.check.itemsOn).toBe(split.check.itemsAlways - split.check.keptByWords);
  });
});
