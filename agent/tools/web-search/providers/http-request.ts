import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { ProviderFailureKind } from '../types.js';
import { decodeHtml } from './html-text.js';

// One provider HTTP call with a time-out over the whole exchange, and one bounded retry after a 429
// that honours Retry-After (header, Brave's X-RateLimit-Reset, or a `retry_after` body field).

export interface HttpSuccess {
  ok: true;
  status: number;
  body: string;
}
export interface HttpFailure {
  ok: false;
  kind: ProviderFailureKind;
  detail: string;
}

export interface ProviderHttpOptions {
  fetch: typeof fetch;
  timeoutMs: number;
}

export const userAgent = 'Saeng/0.1 (self-hosted assistant)';

export interface HttpCall {
  url: string;
  init: RequestInit;
  fetch: typeof fetch;
  timeoutMs: number;
  signal: AbortSignal;
  /** Longest 429 wait worth sitting out; longer waits fail fast. */
  maxRetryWaitMs?: number;
}

const defaultRetryWaitMs = 1000;
const defaultMaxRetryWaitMs = 5000;
const maxBodyBytes = 2_000_000;

function firstNumber(text: string | null): number | undefined {
  if (!text) return undefined;
  const match = /^\s{0,8}(\d{1,9}(?:\.\d{1,6})?)/.exec(text);
  return match ? Number(match[1]) : undefined;
}

function bodyRetrySeconds(body: string): number | undefined {
  if (body.length > 100_000) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const queue: unknown[] = [parsed];
  // Breadth-first over a few levels: Tavily keyless nests it under `error`, others under `detail`.
  for (let steps = 0; queue.length > 0 && steps < 50; steps += 1) {
    const value = queue.shift();
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      if ((key === 'retry_after' || key === 'retry_after_seconds') && typeof child === 'number') return child;
      if (typeof child === 'object' && child !== null) queue.push(child);
    }
  }
  return undefined;
}

/** Milliseconds to wait before retrying a 429, or undefined when the server did not say. */
export function retryAfterMs(headers: Headers, body: string, nowMs: number): number | undefined {
  const header = headers.get('retry-after');
  const seconds = firstNumber(header);
  if (seconds !== undefined) return Math.round(seconds * 1000);
  if (header) {
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, date - nowMs);
  }
  // Brave: "X-RateLimit-Reset: 1, 1419704" — the first window is the per-second one.
  const reset = firstNumber(headers.get('x-ratelimit-reset'));
  if (reset !== undefined) return Math.round(reset * 1000);
  const fromBody = bodyRetrySeconds(body);
  return fromBody === undefined ? undefined : Math.round(fromBody * 1000);
}

async function readBody(response: Response): Promise<string> {
  const text = await response.text();
  return text.length > maxBodyBytes ? text.slice(0, maxBodyBytes) : text;
}

function failureFor(error: unknown, timeout: AbortSignal, outer: AbortSignal): HttpFailure {
  if (timeout.aborted) return { ok: false, kind: 'timeout', detail: 'no answer within the time limit' };
  if (outer.aborted) return { ok: false, kind: 'aborted', detail: 'the turn was cancelled' };
  const message = error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
  return { ok: false, kind: 'unreachable', detail: message.slice(0, 200) };
}

export async function httpRequest(call: HttpCall): Promise<HttpSuccess | HttpFailure> {
  const started = Date.now();
  const timeout = AbortSignal.timeout(call.timeoutMs);
  const signal = AbortSignal.any([call.signal, timeout]);
  const maxWait = call.maxRetryWaitMs ?? defaultMaxRetryWaitMs;
  for (let attempt = 0; ; attempt += 1) {
    let status: number;
    let body: string;
    let headers: Headers;
    try {
      const response = await call.fetch(call.url, { ...call.init, signal });
      status = response.status;
      headers = response.headers;
      body = await readBody(response);
    } catch (error) {
      return failureFor(error, timeout, call.signal);
    }
    if (status !== 429) return { ok: true, status, body };
    const wait = retryAfterMs(headers, body, Date.now()) ?? defaultRetryWaitMs;
    const remaining = call.timeoutMs - (Date.now() - started);
    if (attempt > 0 || wait > maxWait || wait >= remaining) {
      return { ok: false, kind: 'rate-limited', detail: `rate limited (retry after ${Math.ceil(wait / 1000)} s)` };
    }
    try {
      await sleep(wait, undefined, { signal });
    } catch (error) {
      return failureFor(error, timeout, call.signal);
    }
  }
}

const errorBody = z.object({
  error: z.union([z.string(), z.object({ code: z.string().optional(), detail: z.string().optional(), message: z.string().optional() })]).optional(),
  detail: z.union([z.string(), z.object({ error: z.string().optional() })]).optional(),
});

function reasonFromJson(body: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.slice(0, 100_000));
  } catch {
    return undefined;
  }
  const shaped = errorBody.safeParse(parsed);
  if (!shaped.success) return '';
  const { error, detail } = shaped.data;
  if (typeof error === 'string') return error;
  if (error) return [error.code, error.detail, error.message].filter((part) => part !== undefined).join(': ');
  if (typeof detail === 'string') return detail;
  return detail?.error ?? '';
}

/** A short reason from an error body: SearXNG `error`, Brave `error.code`/`detail`, Tavily `detail.error`, or text. */
export function describeErrorBody(status: number, body: string): string {
  const reason = reasonFromJson(body) ?? decodeHtml(body.slice(0, 2000));
  return `HTTP ${status}${reason ? `: ${reason.slice(0, 160)}` : ''}`;
}
