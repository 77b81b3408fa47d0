import { isRecord } from '../../src/shared/is-record.js';
// Parsers for the bodies of leaked tool-call markup (the formats of markup-scan.ts): JSON calls (Hermes, Mistral,
// Llama, bare), Qwen3-Coder XML parameters, Anthropic-style invokes and GLM key/value pairs. They never throw;
// whatever does not parse yields no call (the markup is still cut from the answer).

export interface ParsedCall {
  name: string;
  args: unknown;
}

/** Index just after the JSON value opening at `start` (`{` or `[`), or -1 when it does not close before `end`. */
export function jsonValueEnd(text: string, start: number, end: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < end; index++) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index++;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '{' || character === '[') depth++;
    else if (character === '}' || character === ']') {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const callKeys = new Set(['name', 'arguments', 'parameters', 'id', 'type']);

/** `{"name": …, "arguments"|"parameters": …}`, also OpenAI's `{"type":"function","function":{…}}`. */
export function callFromObject(value: unknown): ParsedCall | undefined {
  if (!isRecord(value)) return undefined;
  if (isRecord(value.function)) return callFromObject(value.function);
  if (typeof value.name !== 'string' || value.name.trim() === '') return undefined;
  return { name: value.name.trim(), args: value.arguments ?? value.parameters ?? {} };
}

/** A bare JSON object is a call only with a name, arguments/parameters, and no keys a call does not have. */
export function isCallShapedObject(value: unknown): boolean {
  if (!isRecord(value) || typeof value.name !== 'string') return false;
  if (!('arguments' in value) && !('parameters' in value)) return false;
  return Object.keys(value).every((key) => callKeys.has(key));
}

export function callsFromJson(jsonText: string): ParsedCall[] {
  const value = parseJson(jsonText);
  const items = Array.isArray(value) ? value : [value];
  return items.map(callFromObject).filter((call): call is ParsedCall => call !== undefined);
}

/** Finds needles with monotonically growing `from`, in amortized linear time (no rescans to the end). */
export function createFinder(text: string, end: number): (needle: string, from: number) => number {
  const cache = new Map<string, { from: number; at: number }>();
  return (needle, from) => {
    const cached = cache.get(needle);
    if (cached && cached.from <= from && (cached.at === -1 || cached.at >= from)) return cached.at;
    const found = text.indexOf(needle, from);
    const at = found >= 0 && found + needle.length <= end ? found : -1;
    cache.set(needle, { from, at });
    return at;
  };
}

/** XML parameter values are text; numbers, booleans, arrays and objects written as JSON become values. */
function coerceValue(raw: string): unknown {
  const value = raw.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
  const trimmed = value.trim();
  if (/^(?:-?\d|true$|false$|null$|\[|\{)/.test(trimmed)) {
    const parsed = parseJson(trimmed);
    if (parsed !== undefined) return parsed;
  }
  return value;
}

/**
 * Values between an opening tag and `closer` (or the next opening tag, or the end: small models drop closers).
 * `openTag` finds the opening tags and captures the key.
 */
function taggedValues(body: string, openTag: RegExp, closer: string, nextOpen: string): Record<string, unknown> {
  const find = createFinder(body, body.length);
  const values: Record<string, unknown> = {};
  openTag.lastIndex = 0;
  for (let match = openTag.exec(body); match !== null; match = openTag.exec(body)) {
    const key = (match[1] ?? '').trim();
    const valueStart = match.index + match[0].length;
    const closeAt = find(closer, valueStart);
    const nextAt = find(nextOpen, valueStart);
    const stop = [closeAt, nextAt, body.length].filter((at) => at >= 0).reduce((a, b) => Math.min(a, b));
    if (key) values[key] = coerceValue(body.slice(valueStart, stop));
    openTag.lastIndex = Math.max(openTag.lastIndex, stop);
  }
  return values;
}

/** Body of `<function=NAME>…`: a JSON object, or Qwen3-Coder `<parameter=KEY>value</parameter>` pairs. */
export function callFromFunctionBody(name: string, body: string): ParsedCall {
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{')) {
    const end = jsonValueEnd(trimmed, 0, trimmed.length);
    const args = end > 0 ? parseJson(trimmed.slice(0, end)) : undefined;
    return { name, args: args ?? {} };
  }
  return { name, args: taggedValues(body, /<parameter=([^<>\n]{1,64})>/g, '</parameter>', '<parameter=') };
}

/** Anthropic-style `<invoke name="X"><parameter name="k">v</parameter></invoke>` blocks. */
export function callsFromInvokes(body: string): ParsedCall[] {
  const calls: ParsedCall[] = [];
  const find = createFinder(body, body.length);
  const invoke = /<invoke\s{1,8}name\s{0,4}=\s{0,4}"([^"<>\n]{1,64})"\s{0,8}>/g;
  for (let match = invoke.exec(body); match !== null; match = invoke.exec(body)) {
    const start = match.index + match[0].length;
    const closeAt = find('</invoke>', start);
    const stop = closeAt >= 0 ? closeAt : body.length;
    const inner = body.slice(start, stop);
    const args = taggedValues(inner, /<parameter\s{1,8}name\s{0,4}=\s{0,4}"([^"<>\n]{1,64})"\s{0,8}>/g, '</parameter>', '<parameter');
    calls.push({ name: (match[1] ?? '').trim(), args });
    invoke.lastIndex = Math.max(invoke.lastIndex, stop);
  }
  return calls;
}

/** GLM: `NAME` then `<arg_key>k</arg_key><arg_value>v</arg_value>` pairs. */
export function callFromGlmBody(body: string): ParsedCall | undefined {
  const name = /^\s{0,8}([A-Za-z_][\w.-]{0,63})/.exec(body)?.[1];
  if (!name) return undefined;
  const args: Record<string, unknown> = {};
  const find = createFinder(body, body.length);
  const pair = /<arg_key>([^<\n]{1,64})<\/arg_key>\s{0,8}<arg_value>/g;
  for (let match = pair.exec(body); match !== null; match = pair.exec(body)) {
    const start = match.index + match[0].length;
    const closeAt = find('</arg_value>', start);
    const stop = closeAt >= 0 ? closeAt : body.length;
    args[(match[1] ?? '').trim()] = coerceValue(body.slice(start, stop));
    pair.lastIndex = Math.max(pair.lastIndex, stop);
  }
  return { name, args };
}
