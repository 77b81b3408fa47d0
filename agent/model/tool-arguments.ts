import { describeError } from '../../src/shared/describe-error.js';
// Tool-call argument text from a small model is often almost JSON: empty, double-encoded, cut off by max_tokens, or
// wrapped in a code fence. These repairs are deterministic and never guess at content; the turn then validates the
// value against the tool's zod schema.

export type ParsedArguments = { ok: true; value: unknown } | { ok: false; error: string };

const argumentsLimit = 100_000;

export function parseToolArguments(text: string): ParsedArguments {
  if (text.length > argumentsLimit) return { ok: false, error: `arguments are longer than ${argumentsLimit} characters` };
  const trimmed = stripCodeFence(text.trim());
  if (trimmed === '') return { ok: true, value: {} };
  const direct = tryParse(trimmed);
  if (direct.ok) return { ok: true, value: unwrapEncodedJson(direct.value) };
  const repaired = repairJson(trimmed);
  if (repaired !== undefined) return { ok: true, value: unwrapEncodedJson(repaired) };
  return { ok: false, error: `arguments are not valid JSON (${direct.error})` };
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: describeError(error) };
  }
}

/** `"{\"query\":\"x\"}"`: an object sent as a JSON string. */
function unwrapEncodedJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const inner = value.trim();
  if (!inner.startsWith('{') && !inner.startsWith('[')) return value;
  const parsed = tryParse(inner);
  return parsed.ok && typeof parsed.value === 'object' && parsed.value !== null ? parsed.value : value;
}

function stripCodeFence(text: string): string {
  if (!text.startsWith('```')) return text;
  const firstLineEnd = text.indexOf('\n');
  if (firstLineEnd < 0) return text;
  const body = text.slice(firstLineEnd + 1);
  return (body.trimEnd().endsWith('```') ? body.trimEnd().slice(0, -3) : body).trim();
}

interface Scan {
  /** Closing brackets still owed, innermost first. */
  closers: string;
  inString: boolean;
  /** The string ends in the middle of an escape sequence (`\` or `\u12`). */
  danglingEscape: number;
  /** End of the first complete top-level value, or -1. */
  firstValueEnd: number;
}

function scanJson(text: string): Scan {
  const stack: string[] = [];
  let inString = false;
  let escapeStart = -1;
  let firstValueEnd = -1;
  for (let position = 0; position < text.length; position += 1) {
    const character = text[position];
    if (inString) {
      if (escapeStart >= 0) {
        // \uXXXX needs four more characters; any other escape is one character.
        const isUnicode = text[escapeStart + 1] === 'u';
        if (!isUnicode || position - escapeStart >= 5) escapeStart = -1;
      } else if (character === '\\') escapeStart = position;
      else if (character === '"') inString = false;
      continue;
    }
    if (character === '"') inString = true;
    else if (character === '{') stack.push('}');
    else if (character === '[') stack.push(']');
    else if (character === '}' || character === ']') {
      stack.pop();
      if (stack.length === 0 && firstValueEnd < 0) firstValueEnd = position + 1;
    }
  }
  return {
    closers: stack.reverse().join(''),
    inString,
    danglingEscape: inString && escapeStart >= 0 ? text.length - escapeStart : 0,
    firstValueEnd,
  };
}

function repairJson(text: string): unknown {
  const scan = scanJson(text);
  // One closing bracket too many (a common small-model slip): keep the first whole value.
  if (scan.firstValueEnd > 0 && scan.firstValueEnd < text.length) {
    const rest = text.slice(scan.firstValueEnd);
    if ([...rest].every((character) => character === '}' || character === ']' || character.trim() === '')) {
      const parsed = tryParse(text.slice(0, scan.firstValueEnd));
      if (parsed.ok) return parsed.value;
    }
    return undefined;
  }
  if (scan.closers === '' && !scan.inString) return undefined;
  // A truncated tail: close the open string, finish a dangling key or value, close the brackets.
  let base = text.slice(0, text.length - scan.danglingEscape);
  if (scan.inString) base += '"';
  const withoutComma = base.trimEnd().endsWith(',') ? base.trimEnd().slice(0, -1) : base;
  const withoutPartialLiteral = dropPartialLiteral(withoutComma);
  const candidates = [base, withoutComma, `${withoutComma}null`, `${withoutComma}:null`, withoutPartialLiteral, `${withoutPartialLiteral}null`];
  for (const candidate of candidates) {
    const parsed = tryParse(candidate + scan.closers);
    if (parsed.ok) return parsed.value;
  }
  return undefined;
}

/** `{"a":tru` → `{"a":`; `{"n":1.` → `{"n":`. */
function dropPartialLiteral(text: string): string {
  let end = text.length;
  while (end > 0 && isLiteralCharacter(text.charAt(end - 1))) end -= 1;
  return text.slice(0, end);
}

function isLiteralCharacter(character: string): boolean {
  return (character >= 'a' && character <= 'z') || (character >= '0' && character <= '9') || '.+-E'.includes(character);
}
