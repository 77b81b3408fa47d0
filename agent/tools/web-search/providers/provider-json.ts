import type { z } from 'zod';
import type { ProviderOutcome, RawResult } from '../types.js';
import { describeErrorBody, httpRequest, type HttpCall } from './http-request.js';

// What every provider does with an answer: transport failure as is, a non-200 as an HTTP error with its reason,
// a body that is not the expected JSON as an invalid response, and result items that do not fit skipped one by one.

export type ProviderFailure = Extract<ProviderOutcome, { ok: false }>;

/** Sends the request and hands a 200 body to `parse`. */
export async function requestProvider(call: HttpCall, parse: (body: string) => ProviderOutcome): Promise<ProviderOutcome> {
  const reply = await httpRequest(call);
  if (!reply.ok) return reply;
  if (reply.status !== 200) return { ok: false, kind: 'http-error', detail: describeErrorBody(reply.status, reply.body) };
  return parse(reply.body);
}

/** Parses a JSON body against the provider's response shape. */
export function parseJsonBody<Shape>(body: string, shape: z.ZodType<Shape>, notJson = 'not JSON'): { ok: true; data: Shape } | ProviderFailure {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, kind: 'invalid-response', detail: notJson };
  }
  const shaped = shape.safeParse(parsed);
  return shaped.success ? { ok: true, data: shaped.data } : { ok: false, kind: 'invalid-response', detail: 'unexpected response shape' };
}

/** Maps the items that fit the result shape; the others are skipped (missing fields are common). */
export function collectResults<Item>(items: readonly unknown[], shape: z.ZodType<Item>, toResult: (item: Item) => RawResult): RawResult[] {
  const results: RawResult[] = [];
  for (const item of items) {
    const entry = shape.safeParse(item);
    if (entry.success) results.push(toResult(entry.data));
  }
  return results;
}
