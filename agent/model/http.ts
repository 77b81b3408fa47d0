import { classifyFailure, classifyHttpError } from './errors.js';
import { ModelError } from './types.js';
import { trimTrailingSlashes } from '../../src/shared/trailing-slashes.js';

// Plain JSON requests for server metadata and the capability probe, where we need the exact status and body text
// rather than the SDK's view of them.

export type HttpOutcome = { ok: true; status: number; json: unknown } | { ok: false; status?: number; error: ModelError };

export interface JsonRequest {
  method?: 'GET' | 'POST';
  body?: unknown;
  apiKey?: string;
  timeoutMs: number;
  fetch?: typeof globalThis.fetch;
}

/** Longest body read from a metadata endpoint (a /props chat template can be tens of kilobytes). */
const bodyLimit = 2_000_000;

export async function requestJson(url: string, request: JsonRequest): Promise<HttpOutcome> {
  const fetchImpl = request.fetch ?? globalThis.fetch;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.apiKey) headers.authorization = `Bearer ${request.apiKey}`;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  try {
    const response = await fetchImpl(url, {
      method: request.method ?? 'GET',
      headers,
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) return { ok: false, status: response.status, error: classifyHttpError(response.status, text) };
    if (text.length > bodyLimit) {
      return { ok: false, status: response.status, error: new ModelError('invalid-response', 'the answer is too large', response.status) };
    }
    try {
      return { ok: true, status: response.status, json: JSON.parse(text) };
    } catch {
      return { ok: false, status: response.status, error: new ModelError('invalid-response', 'the answer is not JSON', response.status) };
    }
  } catch (error) {
    return { ok: false, error: classifyFailure(error) };
  }
}

/** The server answered (with anything): as opposed to refused connections and time-outs. */
export function answered(outcome: HttpOutcome): boolean {
  return outcome.ok || outcome.status !== undefined;
}

/** The origin a `/v1` base URL hangs under: native endpoints (/props, /api/show) live there. */
export function serverOrigin(baseUrl: string): string {
  const trimmed = trimTrailingSlashes(baseUrl);
  return trimmed.endsWith('/v1') ? trimmed.slice(0, -3) : trimmed;
}
