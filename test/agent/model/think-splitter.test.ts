import { describe, expect, it } from 'vitest';
import { stripThinking } from '../../../agent/model/index.js';

// One stripThinking for whole helper answers. It used to have a twin in web-search that missed the orphan
// `</think>` of templates that open <think> in the prompt (the relevance check then failed closed on every answer)
// and kept case-insensitive tags, which this one keeps too.

describe('stripThinking', () => {
  it.each([
    ['no thinking', '1: YES', '1: YES'],
    ['a closed block', '<think>result 2 is stale</think>\n1: YES', '1: YES'],
    ['two blocks', '<think>a</think>x<think>b</think>y', 'xy'],
    ['an unclosed block hides the rest', 'x<think>still thinking about 1: YES', 'x'],
    ['an orphan close (the prompt opened <think>)', 'reasoning here</think>\n{"a":1}', '{"a":1}'],
    ['tags in any letter case', '<THINK>plan</Think>{"a":2}', '{"a":2}'],
    ['Thai text around a block', 'ก<think>คิด</think>ข', 'กข'],
  ])('%s', (_name, text, expected) => {
    expect(stripThinking(text)).toBe(expected);
  });

  it('is linear on many unclosed tags', () => {
    const started = performance.now();
    expect(stripThinking(`ok${'<think>'.repeat(20_000)}`)).toBe('ok');
    expect(performance.now() - started).toBeLessThan(200);
  });
});
