import { describe, expect, it } from 'vitest';
import { maskCredentials } from '../../../src/dlp/mask-credentials.js';
import { scanForCredentials } from '../../../src/dlp/scan.js';
import { fake } from '../../support/fake-tokens.js';

// Masking keeps the words and loses only the credentials: format rules, labelled values and configured secrets.

describe('maskCredentials', () => {
  it('masks each value by kind, counts them, and leaves nothing the scanner finds', () => {
    const token = fake.githubClassic();
    const text = `ใช้โทเคน ${token} และ ${token} อีกครั้ง\nรหัสผ่าน: Xk9#mQ2$vL7!pR4z\nค่าตั้งของร้าน ABCDEFGH12345678 ใช้ได้`;
    const result = maskCredentials(text, ['ABCDEFGH12345678']);
    expect(result.text).not.toContain(token);
    expect(result.text).not.toContain('Xk9#mQ2$vL7!pR4z');
    expect(result.text).not.toContain('ABCDEFGH12345678');
    expect(result.text).toContain('ใช้โทเคน [redacted:github-token] และ [redacted:github-token] อีกครั้ง');
    expect(result.masked['github-token']).toBe(2);
    expect(result.masked['configured-secret']).toBe(1);
    expect(Object.values(result.masked).reduce((sum, count) => sum + count, 0)).toBe(4);
    expect(result.unmasked).toEqual([]);
    expect(scanForCredentials(result.text, { secrets: ['ABCDEFGH12345678'] })).toEqual({ found: false });
  });

  it('changes nothing in ordinary Thai text', () => {
    const text = 'ร้านเปิด 08:00–20:00 ทุกวัน โทร 02-123-4567 รหัสสินค้า SKU-2024-001';
    expect(maskCredentials(text)).toEqual({ text, masked: {}, unmasked: [] });
  });

  it('reports a credential it cannot locate (split by a zero-width space) as unmasked', () => {
    const token = fake.githubClassic();
    const result = maskCredentials(`token ${token.slice(0, 10)}\u200b${token.slice(10)} here`);
    expect(result.unmasked).toContain('github-token');
  });
});
