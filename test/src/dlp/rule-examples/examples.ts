import { randomText } from '../../../support/fake-tokens.js';

// The shape of a family's examples, and generators of credential-shaped text (no literal token in the repository).

export interface KindExamples {
  kind: string;
  /** Credentials of this kind, generated from a seed; the table test puts each in Thai and English sentences. */
  positives: { name: string; make: (seed: number) => string }[];
  /** Near-misses of this kind: placeholders, wrong lengths, look-alikes. None may be blocked. */
  negatives: { name: string; text: string }[];
}

export const alphabets = {
  base62: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  base64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  base64url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
  base32: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
  letters: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  hex: '0123456789abcdef',
  digits: '0123456789',
};

const byteAlphabet = Array.from({ length: 256 }, (_unused, code) => String.fromCharCode(code)).join('');

export function base62(length: number, seed: number): string {
  return randomText(length, seed, alphabets.base62);
}

export function randomBytes(length: number, seed: number): Buffer {
  return Buffer.from(randomText(length, seed, byteAlphabet), 'latin1');
}

/** base64url of a JSON value: a JWT header or payload. */
export function jsonPart(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function jwtOf(seed: number, claims: Record<string, unknown> = {}): string {
  const payload = { sub: randomText(10, seed, alphabets.digits), iat: 1_716_239_022 + seed, ...claims };
  return `${jsonPart({ alg: 'HS256', typ: 'JWT' })}.${jsonPart(payload)}.${randomText(43, seed + 1, alphabets.base64url)}`;
}
