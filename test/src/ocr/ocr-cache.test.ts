import { describe, expect, it } from 'vitest';
import { createOcrCache, ocrCacheKey } from '../../../src/ocr/ocr-cache.js';

describe('ocrCacheKey', () => {
  it('depends on the bytes and on the languages', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(ocrCacheKey(bytes, 'tha+eng')).toBe(ocrCacheKey(new Uint8Array([1, 2, 3]), 'tha+eng'));
    expect(ocrCacheKey(bytes, 'tha+eng')).not.toBe(ocrCacheKey(bytes, 'eng'));
    expect(ocrCacheKey(bytes, 'tha')).not.toBe(ocrCacheKey(new Uint8Array([1, 2, 4]), 'tha'));
    expect(ocrCacheKey(bytes, 'tha')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('createOcrCache', () => {
  it('forgets the least recently used entry past the entry bound', () => {
    const cache = createOcrCache({ maxEntries: 2, maxCharacters: 1000 });
    cache.set('a', 'ก');
    cache.set('b', 'ข');
    expect(cache.get('a')).toBe('ก');
    cache.set('c', 'ค');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('ก');
    expect(cache.get('c')).toBe('ค');
    expect(cache.size).toBe(2);
  });

  it('keeps the total characters under the bound', () => {
    const cache = createOcrCache({ maxEntries: 10, maxCharacters: 10 });
    cache.set('a', '12345');
    cache.set('b', '12345');
    cache.set('c', '123');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe('12345');
    expect(cache.get('c')).toBe('123');
  });

  it('never keeps a text larger than the whole budget, and does not evict for it', () => {
    const cache = createOcrCache({ maxEntries: 10, maxCharacters: 10 });
    cache.set('a', 'small');
    cache.set('b', 'x'.repeat(11));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('small');
  });

  it('replaces an entry set again and keeps an empty text', () => {
    const cache = createOcrCache({ maxEntries: 2, maxCharacters: 10 });
    cache.set('a', '1234567890');
    cache.set('a', '');
    cache.set('b', '123456789');
    expect(cache.get('a')).toBe('');
    expect(cache.get('b')).toBe('123456789');
  });
});
