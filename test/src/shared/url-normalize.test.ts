import { describe, expect, it } from 'vitest';
import { capPerDomain, mergeResults } from '../../../agent/tools/web-search/merge-results.js';
import { cleanUrl, urlKey } from '../../../src/shared/url-normalize.js';

describe('cleanUrl', () => {
  it.each([
    ['HTTPS://WWW.Example.co.th:443/a/b?utm_source=x&id=5#top', 'https://www.example.co.th/a/b?id=5'],
    ['http://news.example.com:80/story?fbclid=abc', 'http://news.example.com/story'],
    ['https://shop.example.com/item?gclid=1&utm_campaign=z&ref=tw&color=red', 'https://shop.example.com/item?color=red'],
    // Nothing removed: the query text stays exactly as written (`?downloads` is not rewritten as `?downloads=`).
    ['https://www.python.org/?downloads', 'https://www.python.org/?downloads'],
    ['https://th.wikipedia.org/wiki/%E0%B8%97%E0%B8%AD%E0%B8%87', 'https://th.wikipedia.org/wiki/%E0%B8%97%E0%B8%AD%E0%B8%87'],
  ])('%s → %s', (raw, expected) => {
    expect(cleanUrl(raw)).toBe(expected);
  });

  it.each(['javascript:alert(1)', 'ftp://files.example.com/a', 'not a url', 'https://user:pw@example.com/', `https://a.com/${'x'.repeat(3000)}`])(
    'refuses %s',
    (raw) => {
      expect(cleanUrl(raw)).toBeNull();
    },
  );
});

describe('urlKey', () => {
  it.each([
    ['https://www.python.org/', 'http://python.org'],
    ['https://python.org/downloads/', 'https://www.python.org/downloads'],
    ['https://a.com/p?b=2&a=1', 'https://a.com/p?a=1&b=2&utm_medium=x'],
    ['https://A.com/p#section', 'https://a.com/p'],
    ['https://a.com:443/p', 'https://a.com/p'],
  ])('%s and %s are the same page', (left, right) => {
    expect(urlKey(left)).toBe(urlKey(right));
  });

  it.each([
    ['https://a.com/p', 'https://a.com/q'],
    ['https://a.com/p?id=1', 'https://a.com/p?id=2'],
    ['https://a.com:8443/p', 'https://a.com/p'],
    ['https://docs.python.org/3/', 'https://python.org/3/'],
  ])('%s and %s differ', (left, right) => {
    expect(urlKey(left)).not.toBe(urlKey(right));
  });
});

describe('merging and domain capping', () => {
  it('interleaves variant lists, merges duplicates and keeps the longer snippet', () => {
    const merged = mergeResults([
      [
        { title: 'A', url: 'https://www.a.com/x?utm_source=1', snippet: 'short' },
        { title: 'B', url: 'https://b.com/', snippet: 'b' },
      ],
      [
        { title: 'A again', url: 'http://a.com/x/', snippet: 'a much longer snippet' },
        { title: 'C', url: 'https://c.com/', snippet: 'c' },
      ],
    ]);
    expect(merged.candidates.map((candidate) => candidate.title)).toEqual(['A', 'B', 'C']);
    expect(merged.candidates[0]).toMatchObject({ url: 'https://www.a.com/x', snippet: 'a much longer snippet', variantHits: 2 });
    expect(merged.duplicates).toBe(1);
  });

  it('drops identical title + snippet under different URLs, and results without a usable URL', () => {
    const merged = mergeResults([
      [
        { title: 'Same', url: 'https://mirror1.com/a', snippet: 'same text' },
        { title: 'Same', url: 'https://mirror2.com/a', snippet: 'same text' },
        { title: 'Bad', url: 'javascript:void(0)', snippet: '' },
      ],
    ]);
    expect(merged.candidates).toHaveLength(1);
    expect(merged.invalid).toBe(1);
  });

  it('keeps at most two results per host (www. ignored), best first', () => {
    const merged = mergeResults([
      ['https://www.sanook.com/1', 'https://sanook.com/2', 'https://www.sanook.com/3', 'https://other.com/1'].map((url, index) => ({
        title: `t${index}`,
        url,
        snippet: `s${index}`,
      })),
    ]);
    const capped = capPerDomain(merged.candidates, 2);
    expect(capped.kept.map((candidate) => candidate.url)).toEqual(['https://www.sanook.com/1', 'https://sanook.com/2', 'https://other.com/1']);
    expect(capped.dropped).toBe(1);
  });
});
