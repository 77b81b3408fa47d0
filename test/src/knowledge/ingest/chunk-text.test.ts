import { describe, expect, it } from 'vitest';
import { chunkText, defaultChunkOptions } from '../../../../src/knowledge/ingest/chunk-text.js';

const thaiSentence = 'บริษัทให้พนักงานลาพักร้อนได้ปีละสิบวันโดยต้องแจ้งหัวหน้างานล่วงหน้าอย่างน้อยเจ็ดวัน';

describe('chunkText', () => {
  it('keeps a short document as one chunk, normalized', () => {
    expect(chunkText('  หัวข้อ\r\n\r\n\r\nเนื้อหา ๑๒๓  ')).toEqual([{ position: 0, text: 'หัวข้อ\n\nเนื้อหา 123' }]);
  });

  it('returns nothing for blank text', () => {
    expect(chunkText(' \n\t \u200b ')).toEqual([]);
  });

  it('packs paragraphs into chunks within the size limit, numbered in order', () => {
    const paragraphs = Array.from({ length: 30 }, (_, index) => `${index + 1}. ${thaiSentence} ${thaiSentence}`);
    const chunks = chunkText(paragraphs.join('\n\n'));
    expect(chunks.length).toBeGreaterThan(3);
    chunks.forEach((chunk, index) => {
      expect(chunk.position).toBe(index);
      expect(chunk.text.length).toBeLessThanOrEqual(defaultChunkOptions.maxCharacters);
    });
    // Every paragraph survives whole in some chunk (paragraph boundaries are preferred cut points).
    for (const paragraph of paragraphs) expect(chunks.some((chunk) => chunk.text.includes(paragraph))).toBe(true);
  });

  it('splits unpunctuated Thai at spaces or word boundaries, never inside a word', () => {
    const text = Array.from({ length: 40 }, () => thaiSentence).join('');
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(2);
    const segmenter = new Intl.Segmenter('th', { granularity: 'word' });
    const boundaries = new Set([...segmenter.segment(text)].map((segment) => segment.index));
    for (const chunk of chunks) {
      const start = text.indexOf(chunk.text);
      expect(start).toBeGreaterThanOrEqual(0);
      expect(boundaries.has(start)).toBe(true);
      expect(chunk.text.length).toBeLessThanOrEqual(defaultChunkOptions.maxCharacters);
    }
  });

  it('repeats a short overlap from the previous chunk', () => {
    const sentences = Array.from({ length: 60 }, (_, index) => `Sentence number ${index + 1} explains one rule.`);
    const chunks = chunkText(sentences.join(' '));
    expect(chunks.length).toBeGreaterThan(1);
    for (let index = 1; index < chunks.length; index += 1) {
      const previous = chunks[index - 1]?.text ?? '';
      const current = chunks[index]?.text ?? '';
      const firstSentence = /^Sentence number [0-9]{1,3} explains one rule\./.exec(current)?.[0] ?? '';
      expect(firstSentence).not.toBe('');
      expect(previous).toContain(firstSentence);
      expect(current.length).toBeLessThanOrEqual(defaultChunkOptions.maxCharacters);
    }
  });

  it('hard-cuts a run with no boundary at all', () => {
    const chunks = chunkText('x'.repeat(3000));
    expect(chunks.length).toBeGreaterThanOrEqual(3);
    expect(
      chunks
        .map((chunk) => chunk.text)
        .join('')
        .replace(/x/g, ''),
    ).toBe('');
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(defaultChunkOptions.maxCharacters);
  });
});
