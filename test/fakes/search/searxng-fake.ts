import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { type FakeHttpServer, type FakeResponse, json, startFakeHttpServer, text } from './fake-http-server.js';
import { type Answer, ScriptedQueue, isFakeResponse } from './scripted-queue.js';

// A SearXNG instance: `/search?format=json` answers in the captured response shape, with
// the real failure modes: 403 HTML when JSON is not enabled, 400/500 JSON errors, the limiter's text 429,
// and 200 with no results plus `unresponsive_engines` when engines are suspended.

const capturedPath = new URL('../../fixtures/search/searxng-python.json', import.meta.url);
const captured = z
  .object({ results: z.array(z.record(z.string(), z.unknown())) })
  .passthrough()
  .parse(JSON.parse(readFileSync(capturedPath, 'utf8')));

/** The 30 real results of the captured `python` query. */
export const capturedSearxngResults = captured.results;

export interface SearxngResultInput {
  url: string;
  title?: string;
  content?: string;
  publishedDate?: string | null;
}

/** A result object in SearXNG's shape. */
export function searxngResult(input: SearxngResultInput, position = 1): Record<string, unknown> {
  const url = new URL(input.url);
  return {
    url: input.url,
    title: input.title ?? '',
    content: input.content ?? '',
    engine: 'google',
    parsed_url: [url.protocol.replace(':', ''), url.host, url.pathname, '', url.search.replace('?', ''), url.hash.replace('#', '')],
    template: 'default.html',
    engines: ['google', 'bing'],
    positions: [position, position],
    ...(input.publishedDate !== undefined ? { publishedDate: input.publishedDate } : {}),
    score: 10 / position,
    category: 'general',
  };
}

export const searxngErrors = {
  formatDisabled: (): FakeResponse =>
    text(403, '<!DOCTYPE html><html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1></body></html>', 'text/html; charset=utf-8'),
  noQuery: (): FakeResponse => json(400, { error: 'No query' }),
  badParameter: (message: string): FakeResponse => json(400, { error: message }),
  searchError: (): FakeResponse => json(500, { error: 'search error' }),
  tooManyRequests: (retryAfterSeconds?: number): FakeResponse =>
    text(429, 'Too Many Requests', 'text/plain; charset=utf-8', retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) }),
  blocklisted: (): FakeResponse => text(429, 'IP is on BLOCKLIST - 127.0.0.1'),
  hang: (delayMs: number): FakeResponse => ({ ...json(200, { results: [] }), delayMs }),
};

export interface SearxngFakeOptions {
  /** Results for a query; default: the captured results. */
  answer?: Answer<Record<string, unknown>>;
  /** Engines reported as unresponsive alongside the results. */
  unresponsive?: [string, string][];
  /** The public-instance limiter: refuse clients whose Accept lacks text/html. */
  limiter?: boolean;
  /** Newer SearXNG (2026-05) no longer sends `number_of_results`. */
  numberOfResults?: boolean;
}

export interface SearxngFake extends FakeHttpServer {
  script: ScriptedQueue;
}

export async function startSearxngFake(options: SearxngFakeOptions = {}): Promise<SearxngFake> {
  const script = new ScriptedQueue();
  const server = await startFakeHttpServer((request) => {
    const queued = script.next();
    if (queued) return queued;
    if (request.path !== '/search' && request.path !== '/') return text(404, 'Not Found');
    if (request.query.get('format') !== 'json') return searxngErrors.formatDisabled();
    if (options.limiter && !String(request.headers.accept ?? '').includes('text/html')) return searxngErrors.tooManyRequests();
    const query = request.query.get('q') ?? '';
    if (query === '') return searxngErrors.noQuery();
    const timeRange = request.query.get('time_range');
    if (timeRange && !['day', 'week', 'month', 'year'].includes(timeRange)) return searxngErrors.badParameter('Invalid time_range');
    const answer = options.answer ? options.answer(query, request) : capturedSearxngResults;
    if (isFakeResponse(answer)) return answer;
    const { number_of_results: numberOfResults, ...rest } = captured;
    return json(200, {
      ...rest,
      ...(options.numberOfResults === false ? {} : { number_of_results: numberOfResults ?? 0 }),
      query,
      results: answer,
      infoboxes: options.answer ? [] : captured['infoboxes'],
      unresponsive_engines: options.unresponsive ?? [],
    });
  });
  return { ...server, script };
}
