import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { ModelError, type ModelErrorKind } from './types.js';
import { errorCode } from '../../src/shared/error-code.js';

// Turns whatever a model server or the network did wrong into one ModelError kind. Servers disagree on error bodies
// (five shapes among llama-server, Ollama, vLLM and LM Studio), so the message is read from every known shape and
// matched by text, not `type`.

/** Longest server message kept in a ModelError (bodies can be whole HTML pages). */
const messageLimit = 300;
/** Longest body text we look at. */
const bodyLimit = 20_000;

/** The human-readable message of an error body: `{"error":{"message"}}`, `{"error":"…"}`, `{"message"}`, `{"detail"}`, text. */
export function extractErrorMessage(bodyText: string): string {
  const text = bodyText.slice(0, bodyLimit).trim();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return shorten(text);
  }
  return shorten(messageFromValue(parsed) ?? text);
}

function messageFromValue(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value;
  if (depth > 3 || typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    // FastAPI validation errors: {"detail":[{"msg":"…"}]}
    const parts = value.map((item) => messageFromValue(item, depth + 1)).filter((item) => item !== undefined);
    return parts.length > 0 ? parts.join('; ') : undefined;
  }
  const record = value as Record<string, unknown>;
  for (const key of ['error', 'message', 'detail', 'msg']) {
    const found = messageFromValue(record[key], depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Characters a token or key is made of: a cut inside a run of them would keep a secret's prefix. */
function isTokenCharacter(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || [43, 45, 46, 47, 58, 61, 95].includes(code);
}

/**
 * At most `messageLimit` characters, never ending in the middle of a token: the log redactor finds a configured
 * secret by its whole value, and a cut one (its first 20 characters, say) would slip through.
 */
function shorten(text: string): string {
  if (text.length <= messageLimit) return text;
  let end = messageLimit;
  if (isTokenCharacter(text.charCodeAt(end))) while (end > 0 && isTokenCharacter(text.charCodeAt(end - 1))) end--;
  return `${text.slice(0, end).trimEnd()}…`;
}

const toolRefusalTexts = ['does not support tools', 'requires --jinja', 'enable-auto-tool-choice'];

/** True when a server message definitively says "this model/server cannot take tools". */
export function isToolsRefusal(message: string): boolean {
  const lower = message.slice(0, 2000).toLowerCase();
  if (toolRefusalTexts.some((needle) => lower.includes(needle))) return true;
  // "tool … not supported/allowed" and "unsupported … tool" within one sentence.
  return followedBy(lower, 'tool', ['not supported', 'not allowed']) || followedBy(lower, 'unsupported', ['tool']);
}

/** `first` followed, within 80 characters of the same sentence, by one of `then`. Plain string search, no regex. */
function followedBy(text: string, first: string, then: string[]): boolean {
  for (let found = text.indexOf(first); found >= 0; found = text.indexOf(first, found + 1)) {
    // "tool_choice … not supported" is about one parameter, not about tools.
    if (text.startsWith('_choice', found + first.length)) continue;
    let window = text.slice(found + first.length, found + first.length + 80);
    const sentenceEnd = Math.min(...['.', '\n'].map((stop) => window.indexOf(stop)).filter((position) => position >= 0), window.length);
    window = window.slice(0, sentenceEnd);
    if (then.some((needle) => window.includes(needle))) return true;
  }
  return false;
}

const contextTexts = ['exceed_context_size', 'context size', 'context length', 'context window', 'too many tokens', 'prompt is too long', 'input is too large'];

export function isContextOverflow(message: string): boolean {
  const lower = message.slice(0, 2000).toLowerCase();
  return contextTexts.some((needle) => lower.includes(needle));
}

/** llama-server before PR #12379 could not stream with tools; the fix is to ask again without streaming. */
export function isStreamWithToolsUnsupported(error: ModelError): boolean {
  return error.message.toLowerCase().includes('cannot use tools with stream');
}

/** The server refused `response_format` / `json_schema` (old llama-server answers 500, others 400). */
export function isResponseFormatRefusal(error: ModelError): boolean {
  if (error.status === undefined || error.status < 400) return false;
  const lower = error.message.toLowerCase();
  return lower.includes('response_format') || lower.includes('json_schema');
}

/** Classifies an HTTP error answer from its status and body text. */
export function classifyHttpError(status: number, bodyText: string): ModelError {
  return classifyMessage(status, extractErrorMessage(bodyText));
}

function classifyMessage(status: number | undefined, message: string): ModelError {
  const lower = message.toLowerCase();
  const shown = status === undefined ? message : `HTTP ${status}: ${message}`;
  let kind: ModelErrorKind;
  if (isToolsRefusal(message)) kind = 'tools-unsupported';
  else if (isContextOverflow(message)) kind = 'context-overflow';
  else if (status === 503 || lower.includes('loading model')) kind = 'loading';
  else if (status === 408) kind = 'timeout';
  else if (status !== undefined && status >= 400 && status < 500) kind = 'bad-request';
  else kind = 'server-error';
  return new ModelError(kind, shown, status);
}

const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

/** Classifies anything thrown by the openai SDK, fetch, a stream or JSON parsing. */
export function classifyFailure(error: unknown): ModelError {
  if (error instanceof ModelError) return error;
  if (error instanceof APIConnectionTimeoutError) return new ModelError('timeout', 'the model server did not answer in time');
  if (error instanceof APIUserAbortError) return new ModelError('timeout', 'the request was aborted');
  if (error instanceof APIConnectionError) return new ModelError('unreachable', describeConnectionFailure(error));
  if (error instanceof APIError) {
    // Status errors (our fetch wrapper normalises every body to {"error":{"message"}}) and errors sent inside a stream.
    return classifyMessage(error.status, messageFromValue(error.error) ?? error.message);
  }
  if (error instanceof SyntaxError) return new ModelError('invalid-response', `the model server sent malformed JSON: ${shorten(error.message)}`);
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new ModelError('timeout', 'the model server did not answer in time');
  }
  if (error instanceof Error) return new ModelError('unreachable', describeConnectionFailure(error));
  return new ModelError('unreachable', shorten(String(error)));
}

function describeConnectionFailure(error: Error): string {
  const code = errorCode(error) ?? errorCode(error.cause) ?? errorCode(causeOf(error.cause));
  if (code !== undefined) return unreachableCodes.has(code) ? `cannot connect to the model server (${code})` : `connection failed (${code})`;
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return shorten(`connection failed: ${error.message}${cause}`);
}

function causeOf(value: unknown): unknown {
  return value instanceof Error ? value.cause : undefined;
}

/**
 * Worth another attempt: the server may come back (never a 4xx, never a definitive refusal). A server that stayed
 * silent for the whole MODEL_TIMEOUT_MS is not asked again: it stays silent, and each retry would wait as long
 * again. A 408 (an answer: a proxy gave up) may still be retried.
 */
export function isRetryable(error: ModelError): boolean {
  if (error.kind === 'timeout') return error.status !== undefined;
  return error.kind === 'unreachable' || error.kind === 'loading' || error.kind === 'server-error';
}
