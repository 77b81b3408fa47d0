import { describe, expect, it } from 'vitest';
import { isPlaceholderPassword, isPlaceholderSecret } from '../../../../src/dlp/placeholder.js';
import { randomText } from '../../../support/fake-tokens.js';

const hex = '0123456789abcdef';

describe('isPlaceholderSecret: the random part of a token', () => {
  it.each([
    ['all the same letter', 'A'.repeat(24)],
    ['x run', 'x'.repeat(34)],
    ['sequential fixture', '1234567890abcdef1234567890abcdef1234'],
    ['EXAMPLE marker', 'IOSFODNN7EXAMPLE'],
    ['says what to put there', 'your-api-key-here'],
    ['REDACTED', '[REDACTED]'],
    ['masked but for a few characters', `ab12${'*'.repeat(30)}`],
    ['few distinct characters', 'abcabcabcabcabcabcabcabc'.replace(/c/g, 'x')],
  ])('%s is a placeholder', (_name, value) => {
    expect(isPlaceholderSecret(value)).toBe(true);
  });

  it.each([
    ['a random base62 part', randomText(36, 1)],
    [
      'a legacy Slack random part whose last segment is short',
      `${randomText(10, 2, '0123456789')}-${randomText(10, 3, '0123456789')}-${randomText(10, 4, '0123456789')}-${randomText(10, 5, hex)}`,
    ],
    ['a random part with a masked stretch in the middle', `${randomText(40, 6)}xxxxxx${randomText(40, 7)}`],
    ['a random part with a zero-byte run of base64', `${randomText(30, 8)}AAAAAA${randomText(30, 9)}`],
    ['32 random hex digits', randomText(32, 10, hex)],
  ])('%s is not a placeholder', (_name, value) => {
    expect(isPlaceholderSecret(value)).toBe(false);
  });
});

describe('isPlaceholderPassword: a password in a URL or an assignment', () => {
  it.each([
    'password',
    'Password',
    'pass',
    'secret',
    'changeme',
    '<password>',
    '${PASSWORD}',
    '$DB_PASSWORD',
    '{{db_pass}}',
    '%PASSWORD%',
    '****',
    'xxx',
    '...',
    'your_password',
  ])('%s is a placeholder', (value) => {
    expect(isPlaceholderPassword(value)).toBe(true);
  });

  it.each(['hunter2', 'postgres', 'S3cure!pass', randomText(16, 11), 'password123!', 'รหัสผ่าน2026'])('%s is a real password', (value) => {
    expect(isPlaceholderPassword(value)).toBe(false);
  });
});
