import { randomText } from '../fake-tokens.js';

// Seeded drawing for the corpus: every value comes from randomText (test/support/fake-tokens.ts) with a seed of its
// own, so the corpus is identical on every run and no credential-shaped literal sits in the repository.

export const alphabets = {
  upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  lower: 'abcdefghijklmnopqrstuvwxyz',
  letters: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz',
  digits: '0123456789',
  hex: '0123456789abcdef',
  upperHex: '0123456789ABCDEF',
  base32: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567',
  base36: '0123456789abcdefghijklmnopqrstuvwxyz',
  base62: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  base64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
  base64url: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
  upperAlnum: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  password: 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!@#$%^&*-_+=?',
  urlPassword: 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789-_.~',
} as const;

/** A stream of seeded draws; two Draws with different names never share a seed. */
export class Draw {
  private counter = 0;
  private readonly base: number;

  constructor(name: string) {
    let hash = 2_166_136_261;
    for (const character of name) hash = Math.imul(hash ^ character.charCodeAt(0), 16_777_619) >>> 0;
    this.base = hash;
  }

  private nextSeed(): number {
    this.counter++;
    return Math.imul(this.base ^ Math.imul(this.counter, 2_654_435_761), 2_246_822_519) >>> 0 || 1;
  }

  text(length: number, alphabet: string = alphabets.base62): string {
    return randomText(length, this.nextSeed(), alphabet);
  }

  /** A number in [min, max]. */
  int(min: number, max: number): number {
    return min + (this.nextSeed() % (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(0, items.length - 1)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** Digits without a leading zero. */
  number(length: number): string {
    return `${this.int(1, 9)}${this.text(length - 1, alphabets.digits)}`;
  }
}

export function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** `length` seeded random bytes (drawn as hex text, so uniform and still reproducible). */
export function randomBytes(draw: Draw, length: number): Buffer {
  return Buffer.from(draw.text(length * 2, alphabets.hex), 'hex');
}

/** Base64 of a DER structure: its fixed prefix (hex) followed by random bytes up to `totalBytes`. */
export function derBase64(draw: Draw, prefixHex: string, totalBytes: number): string {
  const prefix = Buffer.from(prefixHex.replace(/ /g, ''), 'hex');
  return Buffer.concat([prefix, randomBytes(draw, Math.max(0, totalBytes - prefix.length))]).toString('base64');
}

export function wrap(text: string, width = 64): string {
  return text.match(new RegExp(`.{1,${width}}`, 'g'))?.join('\n') ?? text;
}
