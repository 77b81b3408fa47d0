import { describe, expect, it } from 'vitest';
import { earlyPart, earlyReplyHandle, maxEarlyChars, readEarlyReply, remainderAfter } from '../../../adapters/line/early-reply.js';
import { maxLiveMessageChars } from '../../../src/queue/inbound-queue.js';

describe('LINE early reply: what it carried', () => {
  it('cuts the shown text at its last line break, never inside an open code fence', () => {
    expect(earlyPart('บรรทัดแรก\nบรรทัดที่สองยังเขียน')).toBe('บรรทัดแรก\n');
    expect(earlyPart('บรรทัดเดียวที่ยังเขียนอยู่')).toBe('บรรทัดเดียวที่ยังเขียนอยู่');
    expect(earlyPart('ตัวอย่าง\n```ts\nconst a = 1;\nconst b')).toBe('ตัวอย่าง\n');
    expect(earlyPart('   \n')).toBe('');
    expect(earlyPart(`${'ก'.repeat(maxEarlyChars + 10)}`)).toBe('');
    expect(earlyPart(`บรรทัดแรก\n${'ก'.repeat(maxEarlyChars)}`)).toBe('บรรทัดแรก\n');
  });

  it('names the carried start by length and digest, and the rest follows only an answer that starts with it', () => {
    const carried = 'ราคาทองวันนี้\n';
    const handle = earlyReplyHandle(carried);
    expect(handle.length).toBeLessThanOrEqual(maxLiveMessageChars);
    expect(handle).not.toContain('ราคา');
    const replied = readEarlyReply(handle);
    expect(replied).toBeDefined();
    if (!replied) return;
    expect(remainderAfter(`${carried}ขายออก 41,050 บาท`, replied)).toBe('ขายออก 41,050 บาท');
    expect(remainderAfter('คำตอบอื่นทั้งหมด', replied)).toBe('คำตอบอื่นทั้งหมด');
    const noteOnly = readEarlyReply(earlyReplyHandle(''));
    expect(noteOnly && remainderAfter('คำตอบ', noteOnly)).toBe('คำตอบ');
  });

  it('reads no early reply from another platform’s handle or a damaged one', () => {
    for (const handle of [undefined, '12345', '@original', 'line-replied:', 'line-replied:x:ab', `line-replied:1:${'g'.repeat(32)}`])
      expect(readEarlyReply(handle)).toBeUndefined();
  });
});
