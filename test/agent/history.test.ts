import { describe, expect, it } from 'vitest';
import { ConversationHistory, compressAnswer, defaultHistoryLimits, trimHistory, trimPassages, type HistoryPair } from '../../agent/history.js';
import { openStorage } from '../../src/storage/storage.js';

const pair = (index: number, size = 10): HistoryPair => ({ question: `q${index}`.padEnd(size, '.'), answer: `a${index}` });

describe('history limits', () => {
  const chars = (pairs: HistoryPair[]) => pairs.reduce((sum, item) => sum + item.question.length + item.answer.length, 0);

  it('keeps up to 5 pairs as they are', () => {
    const pairs = Array.from({ length: 5 }, (_, index) => pair(index));
    expect(trimHistory(pairs)).toEqual(pairs);
  });

  it('past 5 pairs, drops the oldest down to 3 at once', () => {
    const pairs = Array.from({ length: 6 }, (_, index) => pair(index));
    expect(trimHistory(pairs).map((item) => item.answer)).toEqual(['a3', 'a4', 'a5']);
  });

  it('past 20,000 characters, drops the oldest down to 12,000 at once', () => {
    const pairs = Array.from({ length: 3 }, (_, index) => pair(index, 7_000));
    expect(chars(pairs)).toBeGreaterThan(20_000);
    const kept = trimHistory(pairs);
    expect(kept.map((item) => item.answer)).toEqual(['a2']);
    expect(chars(kept)).toBeLessThanOrEqual(12_000);
    const underLimit = Array.from({ length: 2 }, (_, index) => pair(index, 9_000));
    expect(trimHistory(underLimit)).toEqual(underLimit);
  });

  it('never holds more than either bound, whatever arrives', () => {
    let history: HistoryPair[] = [];
    for (let index = 0; index < 40; index++) {
      history = trimHistory([...history, pair(index, 500 + ((index * 3_001) % 9_000))]);
      expect(history.length).toBeLessThanOrEqual(defaultHistoryLimits.maxPairs);
      expect(chars(history)).toBeLessThanOrEqual(defaultHistoryLimits.maxChars);
      expect(history.at(-1)?.answer).toBe(`a${index}`);
    }
  });

  it('stores through keyv and re-sends byte-for-byte', async () => {
    const storage = openStorage(':memory:');
    const history = new ConversationHistory(storage.history);
    for (let index = 0; index < 7; index++) await history.append('c', { question: `คำถาม ${index}\n[วันเวลาปัจจุบัน]`, answer: `คำตอบ ${index}` });
    const loaded = await history.load('c');
    // 1..5 kept; the 6th append trims to 3 (q3..q5); the 7th makes 4 (q3..q6).
    expect(loaded).toHaveLength(4);
    expect(loaded[0]?.question).toBe('คำถาม 3\n[วันเวลาปัจจุบัน]');
    expect(await history.load('other')).toEqual([]);
    await history.clear('c');
    expect(await history.load('c')).toEqual([]);
    storage.close();
  });
});

describe('passages kept in history', () => {
  const withPassages = (index: number, chars = 100): HistoryPair => ({
    ...pair(index),
    passages: { text: 'p'.repeat(chars), citations: [{ label: `kb › ${index}` }] },
  });
  const carrying = (pairs: HistoryPair[]) => pairs.map((item) => item.passages !== undefined);

  it('keeps the passages of the last 3 turns; past that the oldest lose theirs down to 1 at once', () => {
    const three = [withPassages(0), withPassages(1), withPassages(2)];
    expect(trimPassages(three)).toEqual(three);
    const four = trimPassages([...three, withPassages(3)]);
    expect(carrying(four)).toEqual([false, false, false, true]);
    // The questions and answers stay: only the passages after a question go.
    expect(four[0]).toEqual(pair(0));
  });

  it('past 12,000 characters of passages, the oldest lose theirs down to 6,500', () => {
    expect(carrying(trimPassages([withPassages(0, 7_000), withPassages(1, 6_000)]))).toEqual([false, true]);
    expect(carrying(trimPassages([withPassages(0, 6_000), withPassages(1, 7_000)]))).toEqual([false, false]);
  });

  it('rewrites an earlier message once every few turns, not on every turn', async () => {
    const storage = openStorage(':memory:');
    const history = new ConversationHistory(storage.history);
    const rewrites: number[] = [];
    let before: HistoryPair[] = [];
    for (let turn = 0; turn < 9; turn++) {
      await history.append('c', { question: `q${turn}`, passages: { text: `passages ${turn}`, citations: [] }, answer: `a${turn}` });
      const after = await history.load('c');
      // A rewrite: the history the next request sends does not start with the one the last request sent.
      if (JSON.stringify(after.slice(0, before.length)) !== JSON.stringify(before)) rewrites.push(turn);
      before = after;
    }
    expect(rewrites).toEqual([3, 5, 6, 8]);
    storage.close();
  });

  it('with maxPassagePairs 0 keeps none (the policy before)', () => {
    const limits = { ...defaultHistoryLimits, maxPassagePairs: 0 };
    expect(carrying(trimPassages([withPassages(0)], limits))).toEqual([false]);
  });
});

describe('ConversationHistory turn ids', () => {
  it('replaces the exchange of a turn run again after a crash instead of repeating it', async () => {
    const storage = openStorage(':memory:');
    const history = new ConversationHistory(storage.history);
    await history.append('c', { question: 'เปิดกี่โมง', answer: 'แปดโมง', turnId: 'telegram:100:1' });
    await history.append('c', { question: 'ปิดกี่โมง', answer: 'สองทุ่ม (ตอบครั้งแรก)', turnId: 'telegram:100:2' });
    await history.append('c', { question: 'ปิดกี่โมง', answer: 'สองทุ่ม', turnId: 'telegram:100:2' });
    await history.append('c', { question: 'ขอบคุณ', answer: 'ยินดีครับ' });
    expect((await history.load('c')).map((pair) => pair.answer)).toEqual(['แปดโมง', 'สองทุ่ม', 'ยินดีครับ']);
    storage.close();
  });
});

describe('compressAnswer', () => {
  it('drops the code-appended source list, markers and tool markup, deterministically', () => {
    const answer = 'ราคาน้ำมันวันนี้ 35 บาท [source: https://a.example/x]\n<tool_call>junk</tool_call>\n\n\n\nต่อ\n\n**แหล่งที่มา**\n1. https://a.example/x';
    const compressed = compressAnswer(answer);
    expect(compressed).toBe('ราคาน้ำมันวันนี้ 35 บาท\njunk\n\nต่อ');
    expect(compressAnswer(answer)).toBe(compressed);
  });

  it('caps the length', () => {
    expect(compressAnswer('ก'.repeat(5000), 100)).toHaveLength(100);
  });
});
