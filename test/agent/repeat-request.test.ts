import { describe, expect, it } from 'vitest';
import { userAskedToRepeat } from '../../agent/repeat-request.js';

describe('userAskedToRepeat', () => {
  it.each(['พิมพ์คำว่า สวัสดี 10 ครั้ง', 'ช่วยเขียน "ขอบคุณ" ซ้ำ ๕ รอบ', 'Please repeat "hello" 20 times', 'write the word ok 3 times'])('%s → yes', (text) => {
    expect(userAskedToRepeat(text)).toBe(true);
  });
  it.each(['ร้านเปิดกี่โมง', 'เขียนรายงานสรุป', 'I have been there 3 times', 'repeat\n5 times'])('%s → no', (text) => {
    expect(userAskedToRepeat(text)).toBe(false);
  });
});
