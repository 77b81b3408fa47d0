import { credentialRules } from './credential-rules.js';
import { escapeAround, maskJsonEscapes } from './json-escapes.js';
import { windowLength, windowStarts } from './scan.js';

// Redaction for log lines: where the outbound DLP scanner blocks a whole message, a log line keeps its shape and
// loses only the credential, replaced by `[redacted:<kind>]`. Found: the scanner's credential shapes (same rules,
// same placeholder policy), Saeng's configured secrets as exact values (also in their JSON-escaped form), and the
// bot token of every `/bot<token>/` URL path (Telegram file and API URLs, whatever the API root).
// Not found: tokens obfuscated by NFKC look-alikes, zero-width characters or line wraps (the scanner's normalized
// forms), and a secret split by an escape such as `\n` inside a JSON string.

export interface Range {
  start: number;
  end: number;
  kind: string;
}

// Telegraf builds `${apiRoot}/bot${token}/${method}` and `${apiRoot}/file/bot${token}/${path}`.
const botPath = /\/bot\d{1,20}:[A-Za-z0-9_-]{1,200}/g;
const pemEnd = /-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/gi;
const minimumSecretLength = 8;

function label(kind: string): string {
  return `[redacted:${kind}]`;
}

function isBase64Character(code: number): boolean {
  // A-Z a-z 0-9 + / =
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 43 || code === 47 || code === 61;
}

/** A private key header matched: the key itself follows it, up to its END line or the end of the string. */
function privateKeyEnd(view: string, match: Range, stringEnd: number): number {
  const header = view.slice(match.start, match.start + 5);
  if (header === 'LS0tL') {
    let end = match.end;
    while (end < stringEnd && isBase64Character(view.charCodeAt(end))) end++;
    return end;
  }
  if (header === '-----') {
    pemEnd.lastIndex = match.end;
    const found = pemEnd.exec(view);
    if (found && found.index + found[0].length <= stringEnd) return found.index + found[0].length;
  }
  return stringEnd;
}

function escapeForRegex(literal: string): string {
  return literal.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

// The fast path: one case-insensitive pass for any rule's literal; most lines have none, and no pattern runs on them.
const candidate = new RegExp([...new Set([...credentialRules.flatMap((rule) => rule.literals), '/bot'])].map(escapeForRegex).join('|'), 'i');

function ruleRanges(view: string, stringEnd: (from: number) => number): Range[] {
  const ranges: Range[] = [];
  for (const start of windowStarts(view.length)) {
    const window = view.slice(start, start + windowLength);
    for (const rule of credentialRules) {
      rule.pattern.lastIndex = 0;
      for (let match = rule.pattern.exec(window); match !== null; match = rule.pattern.exec(window)) {
        if (!rule.accept(match, window)) continue;
        const range = { start: start + match.index, end: start + match.index + match[0].length, kind: rule.kind };
        if (rule.kind === 'pem-private-key') range.end = privateKeyEnd(view, range, stringEnd(range.end));
        ranges.push(range);
      }
    }
  }
  return ranges;
}

function botTokenRanges(view: string): Range[] {
  const ranges: Range[] = [];
  botPath.lastIndex = 0;
  for (let match = botPath.exec(view); match !== null; match = botPath.exec(view)) {
    ranges.push({ start: match.index + 4, end: match.index + match[0].length, kind: 'telegram-bot-token' });
  }
  return ranges;
}

function secretRanges(text: string, secretForms: readonly string[]): Range[] {
  const ranges: Range[] = [];
  for (const form of secretForms) {
    for (let at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + form.length)) {
      ranges.push({ start: at, end: at + form.length, kind: 'configured-secret' });
    }
  }
  return ranges;
}

/** Sorted, with overlapping ranges joined (the first one's kind names the union). */
function merged(ranges: Range[]): Range[] {
  ranges.sort((left, right) => left.start - right.start);
  const out: Range[] = [];
  for (const range of ranges) {
    const last = out.at(-1);
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else out.push({ ...range });
  }
  return out;
}

function replaced(text: string, ranges: readonly Range[]): string {
  let out = '';
  let cursor = 0;
  for (const range of ranges) {
    out += text.slice(cursor, range.start) + label(range.kind);
    cursor = range.end;
  }
  return out + text.slice(cursor);
}

/** The raw value and, when it differs, the form it takes inside a JSON string (`"` and `\` escaped). */
function secretFormsOf(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < minimumSecretLength) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  return [...forms];
}

function findRanges(text: string, view: string, secretForms: readonly string[], stringEnd: (from: number) => number): Range[] {
  const ranges = secretRanges(text, secretForms);
  if (!candidate.test(view)) return ranges;
  ranges.push(...ruleRanges(view, stringEnd));
  if (view.includes('/bot')) ranges.push(...botTokenRanges(view));
  return ranges;
}

/** Where the credentials of plain text are (overlapping ranges joined); `secrets` are exact values. */
export function credentialRanges(text: string, secrets: readonly string[] = []): Range[] {
  return merged(findRanges(text, text, secretFormsOf(secrets), () => text.length));
}

/** Sorted, overlapping ranges joined (the first one's kind names the union). */
export function mergedRanges(ranges: readonly Range[]): Range[] {
  return merged([...ranges]);
}

/** `text` with each range replaced by `[redacted:<kind>]`. */
export function withRangesRedacted(text: string, ranges: readonly Range[]): string {
  return ranges.length === 0 ? text : replaced(text, ranges);
}

/** Replaces every credential in plain text with `[redacted:<kind>]`; `secrets` are exact values always redacted. */
export function redactCredentials(text: string, secrets: readonly string[] = []): string {
  return withRangesRedacted(text, credentialRanges(text, secrets));
}

/**
 * A redactor for serialized JSON log lines (pino's `hooks.streamWrite`). The patterns run on a copy in which every
 * escape sequence is blanked out, so a token right after `\n` is still found; each replaced range is widened to
 * whole escape sequences, so the line stays valid JSON. A private key is redacted up to the end of its string.
 */
export function createLogRedactor(secrets: readonly string[]): (line: string) => string {
  const secretForms = secretFormsOf(secrets);
  return (line) => {
    if (!candidate.test(line) && !secretForms.some((form) => line.includes(form))) return line;
    const view = line.includes('\\') ? maskJsonEscapes(line) : line;
    const stringEnd = (from: number) => {
      const quote = view.indexOf('"', from);
      return quote < 0 ? view.length : quote;
    };
    const ranges = findRanges(line, view, secretForms, stringEnd);
    if (ranges.length === 0) return line;
    if (view !== line) {
      for (const range of ranges) {
        range.start = escapeAround(line, range.start)?.start ?? range.start;
        range.end = escapeAround(line, range.end)?.end ?? range.end;
      }
    }
    return replaced(line, merged(ranges));
  };
}
