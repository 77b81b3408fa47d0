import { stripThinking } from '../../model/index.js';

// Small models wrap JSON in prose, code fences or <think> blocks even when asked for bare JSON; servers
// without json_schema support let them. Take the outermost object or array and parse that.

const maxLength = 50_000;

function sliceBetween(text: string, open: string, close: string): string | undefined {
  const start = text.indexOf(open);
  const end = text.lastIndexOf(close);
  return start >= 0 && end > start ? text.slice(start, end + 1) : undefined;
}

function tryParse(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The JSON value in a model answer, or undefined when there is none. */
export function parseModelJson(answer: string): unknown {
  if (answer.length > maxLength) return undefined;
  const text = stripThinking(answer).trim();
  const direct = tryParse(text);
  if (direct !== undefined) return direct;
  const objectStart = text.indexOf('{');
  const arrayStart = text.indexOf('[');
  const objectFirst = objectStart >= 0 && (arrayStart < 0 || objectStart < arrayStart);
  const first = objectFirst ? sliceBetween(text, '{', '}') : sliceBetween(text, '[', ']');
  const second = objectFirst ? sliceBetween(text, '[', ']') : sliceBetween(text, '{', '}');
  return tryParse(first) ?? tryParse(second);
}
