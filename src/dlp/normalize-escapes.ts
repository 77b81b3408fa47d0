import { type Edit, maximumEdits } from './normalize-fragments.js';

// A credential written as URL percent-escapes (`%67%68%70%5F…`) or HTML character references (`&#103;&#x68;`,
// `&lowbar;`): a run of escapes (token characters may sit between them, as `encodeURIComponent` leaves them)
// decoded where it holds enough escapes to hide a token. A URL's single `%20` and HTML's `&nbsp;` are left alone.
// The trigger is the `%` or `&` itself, found with indexOf.

/** Escapes in one run before it is decoded: a short credential, one escape per character. */
const minimumPercentEscapes = 8;
const minimumEntities = 6;
const maximumRun = 16_384;
/** Decoded characters per message, in all runs. */
const maximumDecoded = 65_536;

// The named references a model uses for a token's characters; others are not decoded (the run ends there).
const namedEntities: Record<string, string> = {
  amp: '&',
  lowbar: '_',
  underbar: '_',
  period: '.',
  hyphen: '-',
  dash: '-',
  minus: '-',
  sol: '/',
  bsol: '\\',
  colon: ':',
  semi: ';',
  equals: '=',
  plus: '+',
  num: '#',
  excl: '!',
  quest: '?',
  commat: '@',
  dollar: '$',
  percnt: '%',
  ast: '*',
  Hat: '^',
  tilde: '~',
  verbar: '|',
  comma: ',',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

function isTokenCharacter(code: number): boolean {
  return code > 32 && code < 127 && code !== 37 && code !== 38 && code !== 60 && code !== 62 && code !== 34 && code !== 39;
}

function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

interface Escape {
  length: number;
  /** A character, or for a percent escape one byte (as a latin1 character). */
  value: string;
}

function percentAt(text: string, at: number): Escape | undefined {
  const high = hexValue(text.charCodeAt(at + 1));
  const low = hexValue(text.charCodeAt(at + 2));
  return high < 0 || low < 0 ? undefined : { length: 3, value: String.fromCharCode(high * 16 + low) };
}

function entityAt(text: string, at: number): Escape | undefined {
  const semicolon = text.indexOf(';', at + 2);
  if (semicolon < 0 || semicolon - at > 10) return undefined;
  const body = text.slice(at + 1, semicolon);
  if (body.startsWith('#')) {
    const hex = body[1] === 'x' || body[1] === 'X';
    const digits = body.slice(hex ? 2 : 1);
    if (digits.length === 0 || !(hex ? /^[0-9a-fA-F]{1,6}$/ : /^\d{1,7}$/).test(digits)) return undefined;
    const code = Number.parseInt(digits, hex ? 16 : 10);
    return code > 0 && code <= 0x10ffff ? { length: body.length + 2, value: String.fromCodePoint(code) } : undefined;
  }
  const named = namedEntities[body];
  return named === undefined ? undefined : { length: body.length + 2, value: named };
}

/** Bytes collected from percent escapes, read as UTF-8 (latin1 when they are not valid UTF-8). */
function utf8(latin1: string): string {
  const bytes = Buffer.from(latin1, 'latin1');
  const decoded = bytes.toString('utf8');
  return decoded.includes('\ufffd') ? latin1 : decoded;
}

function escapeEdits(text: string, mark: string, escapeAt: (text: string, at: number) => Escape | undefined, minimum: number): Edit[] {
  const edits: Edit[] = [];
  let total = 0;
  let next = 0;
  while (edits.length < maximumEdits && total < maximumDecoded) {
    const first = text.indexOf(mark, next);
    if (first < 0) break;
    let index = first;
    let escapes = 0;
    let decoded = '';
    // Escapes and the token characters between them, up to the first character that is neither.
    while (index < text.length && index - first < maximumRun) {
      const escape = text[index] === mark ? escapeAt(text, index) : undefined;
      if (escape) {
        escapes++;
        decoded += escape.value;
        index += escape.length;
      } else if (isTokenCharacter(text.charCodeAt(index))) {
        decoded += text[index];
        index++;
      } else break;
    }
    next = Math.max(index, first + 1);
    if (escapes < minimum) continue;
    total += decoded.length;
    edits.push({ start: first, end: index, replacement: mark === '%' ? utf8(decoded) : decoded });
  }
  return edits;
}

export function percentEdits(text: string): Edit[] {
  return escapeEdits(text, '%', percentAt, minimumPercentEscapes);
}

export function entityEdits(text: string): Edit[] {
  return escapeEdits(text, '&', entityAt, minimumEntities);
}
