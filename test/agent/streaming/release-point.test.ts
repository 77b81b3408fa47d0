import { describe, expect, it } from 'vitest';
import { releasePoint } from '../../../agent/streaming/release-point.js';

const shown = (text: string): string => text.slice(0, releasePoint(text));
const padding = 'ก'.repeat(24);

describe('releasePoint', () => {
  it('holds the word being written, English and Thai', () => {
    expect(shown('The gold price today is quite hig')).toBe('The gold price today is quite');
    const thai = 'ราคาทองคำวันนี้ปรับตัวขึ้นเล็กน้อยเมื่อเทียบกับเมื่อวาน';
    const released = shown(`${thai}ที่ผ่`);
    expect(thai.startsWith(released) || `${thai}ที่`.startsWith(released)).toBe(true);
    expect(released.length).toBeGreaterThan(10);
  });

  it('holds a figure, with a currency symbol before it, until enough text follows', () => {
    const text = 'ราคาทองคำแท่งวันนี้ ขายออก 41,050 บาทต่อ';
    const released = shown(text);
    expect(text.startsWith(released)).toBe(true);
    expect(released.length).toBeGreaterThan(0);
    expect(released.length).toBeLessThanOrEqual(text.indexOf('41'));
    expect(shown(`ราคาวันนี้ ${padding} US$41,050 ต่อ`)).toBe(`ราคาวันนี้ ${padding}`);
    expect(shown(`ราคาทองวันนี้ ขายออก 41,050 บาท ${padding} x`)).toContain('41,050 บาท');
  });

  it('holds everything from markup, a source heading or a credential-looking piece on', () => {
    expect(shown(`ขอค้นก่อนนะครับ ${padding} <tool_call>{"name": "web_search"} ${padding} ต่อ`)).toBe(`ขอค้นก่อนนะครับ ${padding}`);
    expect(shown(`คำตอบครับ ${padding}\nแหล่งที่มา: ${padding} x`)).toBe(`คำตอบครับ ${padding}`);
    expect(shown(`โทเค็นคือ ${padding} abcd1234EFGH5678 ${padding} ต่อ`)).toBe(`โทเค็นคือ ${padding}`);
    expect(shown(`เว้นวรรค ${padding} g h p _ a b c ${padding} ต่อ`)).toBe(`เว้นวรรค ${padding}`);
  });

  it('holds a list item until its line is complete', () => {
    expect(shown(`สรุปครับ ${padding}\n1. ราคาขายออกวันนี้สูงขึ้นเล็กน้อยกว่าเมื่อวาน`)).toBe(`สรุปครับ ${padding}`);
  });

  it('answers for a long text (each look is one pass: the stream looks again only after 1/16 growth)', () => {
    const long = 'ราคาทองคำวันนี้ปรับตัวขึ้นเล็กน้อย '.repeat(5_000);
    expect(releasePoint(long)).toBeGreaterThan(long.length - 40);
  });
});
