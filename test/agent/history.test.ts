import { describe, expect, it } from 'vitest';
import { ConversationHistory, compressAnswer, trimHistory, type HistoryPair } from '../../agent/history.js';
import { openStorage } from '../../src/storage/storage.js';

const pair = (index: number, size = 10): HistoryPair => ({ question: `q${index}`.padEnd(size, '.'), answer: `a${index}` });

describe('history limits', () => {
  it('keeps at most 5 pairs', () => {
    const pairs = Array.from({ length: 8 }, (_, index) => pair(index));
    expect(trimHistory(pairs).map((item) => item.answer)).toEqual(['a3', 'a4', 'a5', 'a6', 'a7']);
  });

  it('keeps at most 20,000 characters, dropping the oldest first', () => {
    const pairs = Array.from({ length: 4 }, (_, index) => pair(index, 7_000));
    const kept = trimHistory(pairs);
    expect(kept.map((item) => item.answer)).toEqual(['a2', 'a3']);
    expect(kept.reduce((sum, item) => sum + item.question.length + item.answer.length, 0)).toBeLessThanOrEqual(20_000);
  });

  it('stores through keyv and re-sends byte-for-byte', async () => {
    const storage = openStorage(':memory:');
    const history = new ConversationHistory(storage.history);
    for (let index = 0; index < 7; index++) await history.append('c', `คำถาม ${index}\n[วันเวลาปัจจุบัน]`, `คำตอบ ${index}`);
    const loaded = await history.load('c');
    expect(loaded).toHaveLength(5);
    expect(loaded[0]?.question).toBe('คำถาม 2\n[วันเวลาปัจจุบัน]');
    expect(await history.load('other')).toEqual([]);
    await history.clear('c');
    expect(await history.load('c')).toEqual([]);
    storage.close();
  });
});

describe('compressAnswer', () => {
  it('drops the code-appended source list, markers and tool markup, deterministically', () => {
    const answer = 'ราคาน้ำมันวันนี้ 35 บาท [source: https://a.example/x]\n<tool_call>junk</tool_call>\n\n\n\nต่อ\n\n**แหล่งที่มา**\n1. https://a.example/x';
    const compressed = compressAnswer(answer);
    expect(compressed).toBe('ราคาน้ำมันวันนี้ 35 บาท \njunk\n\nต่อ');
    expect(compressAnswer(answer)).toBe(compressed);
  });

  it('caps the length', () => {
    expect(compressAnswer('ก'.repeat(5000), 100)).toHaveLength(100);
  });
});
