import { describe, expect, it } from 'vitest';
import { clockFor, logLines } from '../../../agent/catchup/log-lines.js';
import { estimateTokens, prefixWithinTokens } from '../../../agent/catchup/token-estimate.js';
import { qwenTokenizer } from '../../../bench/model-work-cache.js';
import { syntheticLog } from '../../../bench/summary-log.js';

const encode = qwenTokenizer();

describe('estimateTokens', () => {
  it('never counts fewer tokens than Qwen3 on a line of the Thai bench log', () => {
    const lines = logLines(syntheticLog(1_000, 7).entries, clockFor('th', 'Asia/Bangkok'));
    const under = lines.filter((line) => estimateTokens(line.text) < encode(line.text).length).map((line) => line.text);
    expect(under).toEqual([]);
  });

  it('stays above Qwen3 on other texts a group writes: English, digits, emoji, Thai digits, CJK', () => {
    const texts = [
      'Meeting moved to 15:30, room 4B. Bring the Q3 numbers (1,234,567 THB).',
      '0812345678 081-234-5678 2025-01-15',
      '😂😂😂👍🏽🎉🇹🇭',
      'ราคา ๑,๕๐๐ บาท วันที่ ๒๘',
      '会议改到明天下午三点',
      'ฃ ฅ ฦ ๏ ๚ ๛',
    ];
    for (const text of texts) expect(estimateTokens(text), text).toBeGreaterThanOrEqual(encode(text).length);
  });

  it('counts nothing for nothing', () => {
    expect(estimateTokens('')).toBe(0);
  });
});

describe('prefixWithinTokens', () => {
  it('keeps the longest prefix within the count, never half an emoji', () => {
    const text = `${'ก'.repeat(10)}😂${'ข'.repeat(10)}`;
    const cut = prefixWithinTokens(text, 10, estimateTokens);
    expect(estimateTokens(cut)).toBeLessThanOrEqual(10);
    expect(estimateTokens(text.slice(0, cut.length + 1))).toBeGreaterThan(10);
    const atEmoji = prefixWithinTokens(text, 11, estimateTokens);
    expect(atEmoji).toBe('ก'.repeat(10));
    expect(prefixWithinTokens(text, 1_000, estimateTokens)).toBe(text);
  });
});
