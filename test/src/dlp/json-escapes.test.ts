import { describe, expect, it } from 'vitest';
import { escapeAround, maskJsonEscapes } from '../../../src/dlp/json-escapes.js';

describe('JSON escape sequences', () => {
  it('masks every sequence with as many spaces', () => {
    const line = String.raw`{"a":"x\ny\"z\\w\u0001v"}`;
    expect(maskJsonEscapes(line)).toBe('{"a":"x  y  z  w      v"}');
    expect(maskJsonEscapes(line)).toHaveLength(line.length);
  });

  it('finds the sequence a position falls strictly inside, and nothing at a boundary', () => {
    const line = String.raw`ab\ncd\\ef\u00e9g`;
    // a b \ n c d \ \ e f \ u 0 0 e 9 g
    // 0 1 2 3 4 5 6 7 8 9 10 …     15 16
    expect(escapeAround(line, 2)).toBeUndefined();
    expect(escapeAround(line, 3)).toEqual({ start: 2, end: 4 });
    expect(escapeAround(line, 4)).toBeUndefined();
    expect(escapeAround(line, 7)).toEqual({ start: 6, end: 8 });
    expect(escapeAround(line, 8)).toBeUndefined(); // after `\\`, not inside an escape
    for (const position of [11, 12, 13, 14, 15]) expect(escapeAround(line, position)).toEqual({ start: 10, end: 16 });
    expect(escapeAround(line, 16)).toBeUndefined();
  });
});
