import { describe, expect, it } from 'vitest';
import { characterErrorRate, characterErrorRateLimit } from '../../../src/ocr/character-error-rate.js';

describe('characterErrorRate', () => {
  it('is 0 for the same text and counts edits over the reference length', () => {
    expect(characterErrorRate('ร้านกาแฟ', 'ร้านกาแฟ')).toBe(0);
    expect(characterErrorRate('abcd', 'abxd')).toBe(0.25);
    expect(characterErrorRate('abcd', 'abd')).toBe(0.25);
    expect(characterErrorRate('abcd', 'abcde')).toBe(0.25);
    expect(characterErrorRate('abc', 'xyzxyz')).toBe(2);
  });

  it('ignores whitespace and line breaks on both sides', () => {
    expect(characterErrorRate('รวม 190.00 บาท', 'รวม190.00\n\nบาท ')).toBe(0);
  });

  it('composes sara am and normalizes to NFC before comparing', () => {
    expect(characterErrorRate('สำนักงาน น้ำ', 'ส\u0E4D\u0E32นักงาน น\u0E4D\u0E49\u0E32')).toBe(0);
    expect(characterErrorRate('น้ำ', 'น\u0E49\u0E4D\u0E32')).toBe(0);
    expect(characterErrorRate('e\u0301', '\u00E9')).toBe(0);
  });

  it('counts a dropped nikhahit as one error', () => {
    // Tesseract drops the ring of sara am under a tone mark: น้ำ → น้า.
    expect(characterErrorRate('น้ำ', 'น้า')).toBeCloseTo(1 / 3);
  });

  it('handles empty texts', () => {
    expect(characterErrorRate('', '')).toBe(0);
    expect(characterErrorRate('', 'x')).toBe(1);
    expect(characterErrorRate('abc', '')).toBe(1);
  });

  it('bounds the work on very long inputs', () => {
    const long = 'ก'.repeat(characterErrorRateLimit + 5_000);
    expect(characterErrorRate(long, 'ก'.repeat(10))).toBeCloseTo((characterErrorRateLimit - 10) / characterErrorRateLimit);
  });
});
