import { codeRanges, insideRanges, type Range } from './code-spans.js';
import { isListNumber, plainSuffix, readPrefix, readSuffix } from './number-context.js';
import { thaiDigitsToAscii } from '../../src/shared/thai-digits.js';

// Finds the figures written with digits in a text (Thai digits included) and what each can mean. A hand-written
// scanner, never the word segmenter (which glues digits to letters): a token is digit groups joined by one
// separator each (, . : / - – and thin/no-break spaces), at most 8 groups of at most 20 digits.

export interface Reading {
  value: number;
  /** Half a unit of the last written decimal (times the scale): a rounded figure matches what it rounds. */
  tolerance: number;
}

export type FigureKind = 'number' | 'range' | 'date' | 'time' | 'identifier';
export type Exemption = 'code' | 'url' | 'list' | 'name' | 'small-count' | 'laughter';

export interface Figure {
  kind: FigureKind;
  /** The span replaced when the figure is unsupported (with its % sign, scale word or currency symbol). */
  start: number;
  end: number;
  /** Every part must be supported (a range's ends, a date's day/month/year); each part has alternative readings. */
  parts: Reading[][];
  /** Exact form for identifiers (versions, phone numbers) and times (HH:MM). */
  key?: string;
  exempt?: Exemption;
}

const maxGroups = 8;
const maxDigits = 20;
const thousandsSeparators = new Set([',', '\u00a0', '\u202f', '\u2009']);
const separators = new Set([...thousandsSeparators, '.', ':', '/', '-', '–']);
const urlPattern = /(?:https?:\/\/|www\.)[^\s<>"'`)\]]{1,2048}/g;
const emailPattern = /(?<![\w.+-])[\w.+-]{1,64}@[\w-]{1,64}(?:\.[\w-]{1,64}){1,8}/g;

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** URLs and e-mail addresses, sorted. */
function urlRanges(text: string): Range[] {
  const ranges: Range[] = [];
  for (const pattern of [urlPattern, emailPattern]) {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) ranges.push([match.index, match.index + match[0].length]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  // A URL may contain an address (and the reverse): merge, so that the ranges stay disjoint for binary search.
  const merged: Range[] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] < last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

function reading(digits: string, decimals: string): Reading {
  return { value: Number(decimals ? `${digits}.${decimals}` : digits), tolerance: 0.5 * 10 ** -decimals.length };
}

/** A two-digit year after พ.ศ./ปี (`พ.ศ. 67`) is also 2567, and 2067 read as CE. */
function withTwoDigitYear(part: Reading[], digits: string): Reading[] {
  if (digits.length !== 2 || part.length !== 1) return part;
  const year = Number(digits);
  return [...part, { value: 2500 + year, tolerance: 0.5 }, { value: 2000 + year, tolerance: 0.5 }];
}

function withScale(part: Reading[], scale: number): Reading[] {
  if (scale === 1) return part;
  return [...part, ...part.map((candidate) => ({ value: candidate.value * scale, tolerance: candidate.tolerance * scale }))];
}

function integer(group: string): Reading[] {
  return [{ value: Number(group), tolerance: 0.5 }];
}

interface Token {
  start: number;
  end: number;
  groups: string[];
  separators: string[];
}

function readToken(text: string, start: number): Token {
  const groups: string[] = [];
  const seps: string[] = [];
  let index = start;
  for (;;) {
    const groupStart = index;
    while (index < text.length && isDigit(text.charCodeAt(index))) index++;
    groups.push(text.slice(groupStart, index));
    const separator = text[index] ?? '';
    if (groups.length >= maxGroups || !separators.has(separator) || !isDigit(text.charCodeAt(index + 1))) break;
    seps.push(separator);
    index++;
  }
  return { start, end: index, groups, separators: seps };
}

interface PlainNumber {
  digits: string;
  decimals: string;
}

/** 1234 · 12.5 · 1,234,567 · 1,234.56 · 1 234 (thin or no-break spaces); undefined for anything else. */
function plainNumber(groups: readonly string[], seps: readonly string[]): PlainNumber | undefined {
  const hasDecimals = seps[seps.length - 1] === '.';
  const wholeCount = hasDecimals ? groups.length - 1 : groups.length;
  for (let index = 0; index < wholeCount - 1; index++) {
    if (!thousandsSeparators.has(seps[index] ?? '')) return undefined;
    if ((groups[index + 1] ?? '').length !== 3) return undefined;
  }
  if (wholeCount > 1 && (groups[0] ?? '').length > 3) return undefined;
  const digits = wholeCount === 1 ? (groups[0] ?? '') : groups.slice(0, wholeCount).join('');
  return { digits, decimals: hasDecimals ? (groups[groups.length - 1] ?? '') : '' };
}

type Shape = Pick<Figure, 'kind' | 'parts' | 'key'> & { plain?: PlainNumber };

function identifierShape(token: Token, text: string): Shape {
  return { kind: 'identifier', parts: [], key: text.slice(token.start, token.end) };
}

function isDash(separator: string | undefined): boolean {
  return separator === '-' || separator === '–';
}

/** The one separator all joins use, or undefined when they differ. */
function soleSeparator(seps: readonly string[]): string | undefined {
  const first = seps[0];
  for (const separator of seps) if (separator !== first) return undefined;
  return first;
}

/** What a token is by its own shape, before the words around it are read. */
function classify(token: Token, text: string): Shape {
  const { groups, separators: seps } = token;
  for (const group of groups) if (group.length > maxDigits) return identifierShape(token, text);
  const plain = plainNumber(groups, seps);
  if (plain) return { kind: 'number', parts: [[reading(plain.digits, plain.decimals)]], plain };
  let dashes = 0;
  let dashAt = -1;
  for (let index = 0; index < seps.length; index++) {
    if (isDash(seps[index])) {
      dashes++;
      dashAt = index;
    }
  }
  if (dashes === 1) {
    const left = plainNumber(groups.slice(0, dashAt + 1), seps.slice(0, dashAt));
    const right = plainNumber(groups.slice(dashAt + 1), seps.slice(dashAt + 1));
    if (left && right) return { kind: 'range', parts: [[reading(left.digits, left.decimals)], [reading(right.digits, right.decimals)]] };
    return identifierShape(token, text);
  }
  const separator = soleSeparator(seps);
  const first = groups[0] ?? '';
  const second = groups[1] ?? '';
  if (separator === ':') {
    const valid = groups.length <= 3 && first.length <= 2 && second.length === 2 && Number(first) <= 24 && Number(second) <= 59;
    return valid ? { kind: 'time', parts: [], key: `${Number(first)}:${second}` } : identifierShape(token, text);
  }
  if (separator === '/') {
    const year = groups[2];
    const validYear = year === undefined || year.length === 2 || year.length === 4;
    if (groups.length > 3 || Number(first) > 31 || Number(second) > 12 || !validYear) return identifierShape(token, text);
    const parts = [integer(first), integer(second)];
    if (year !== undefined) parts.push(withTwoDigitYear(integer(year), year));
    return { kind: 'date', parts };
  }
  if (isDash(separator) && groups.length === 3 && first.length === 4) return { kind: 'date', parts: groups.map(integer) }; // ISO date
  if (separator === ',') return { kind: 'range', parts: groups.map(integer) }; // "1,2,3": separate numbers
  return identifierShape(token, text); // versions, IP addresses, phone numbers
}

function isSmall(part: readonly Reading[]): boolean {
  for (const candidate of part) if (!Number.isInteger(candidate.value) || candidate.value > 10) return false;
  return true;
}

function allSmall(parts: readonly Reading[][]): boolean {
  for (const part of parts) if (!isSmall(part)) return false;
  return parts.length > 0;
}

/** All figures of a text, with exemptions marked (code, URLs, list numbering, names, small counts). */
export function extractFigures(input: string): Figure[] {
  const text = thaiDigitsToAscii(input);
  const code = codeRanges(text);
  const urls = urlRanges(text);
  const figures: Figure[] = [];
  for (let index = 0; index < text.length; index++) {
    if (!isDigit(text.charCodeAt(index))) continue;
    const token = readToken(text, index);
    index = token.end - 1;
    figures.push(describe(text, token, code, urls));
  }
  return figures;
}

function describe(text: string, token: Token, code: readonly Range[], urls: readonly Range[]): Figure {
  const shape = classify(token, text);
  const prefix = readPrefix(text, token.start);
  const suffix = prefix.name ? plainSuffix : readSuffix(text, token.end); // a name's digits have no unit
  const figure: Figure = {
    kind: shape.kind,
    start: token.start - prefix.symbolLength,
    end: token.end + suffix.length,
    parts: shape.parts,
    ...(shape.key !== undefined ? { key: shape.key } : {}),
  };
  const plain = shape.plain;
  if (plain && suffix.clock && plain.decimals.length === 2 && Number(plain.digits) <= 24 && Number(plain.decimals) <= 59) {
    figure.kind = 'time'; // 14.30 น.
    figure.key = `${Number(plain.digits)}:${plain.decimals}`;
    figure.parts = [];
  } else if (plain && prefix.year) {
    figure.parts = figure.parts.map((part) => withTwoDigitYear(part, plain.digits));
  }
  // "ปี 2" in "30 ปี 2 เดือน" is a count; a year after ปี has 2 or 4 digits.
  const yearContext = prefix.year && plain !== undefined && !plain.decimals && (plain.digits.length === 2 || plain.digits.length === 4);
  if (figure.kind === 'number' || figure.kind === 'range') figure.parts = figure.parts.map((part) => withScale(part, suffix.scale));

  const isDate = figure.kind === 'date' || figure.kind === 'time' || suffix.month || prefix.day || yearContext;
  const special = suffix.percent || prefix.percent || suffix.money || prefix.money || isDate || suffix.scale !== 1;
  if (insideRanges(code, token.start)) figure.exempt = 'code';
  else if (insideRanges(urls, token.start)) figure.exempt = 'url';
  else if (isListNumber(text, token.start, token.end) || prefix.numbering) figure.exempt = 'list';
  else if (prefix.name && !prefix.money) figure.exempt = 'name';
  else if (!special && figure.kind !== 'identifier' && allSmall(figure.parts)) figure.exempt = 'small-count';
  else if (!special && isLaughter(text, token)) figure.exempt = 'laughter';
  return figure;
}

/** Thai laughter: a bare run of three or more 5s (๕ is transliterated before this), not a quantity. */
function isLaughter(text: string, token: Token): boolean {
  const digits = text.slice(token.start, token.end);
  return digits.length >= 3 && digits.length <= 64 && /^5+$/.test(digits);
}
