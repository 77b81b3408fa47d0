import { afterEach, describe, expect, it } from 'vitest';
import { createBraveProvider } from '../../../../agent/tools/web-search/providers/brave.js';
import { retryAfterMs } from '../../../../agent/tools/web-search/providers/http-request.js';
import { createSearxngProvider } from '../../../../agent/tools/web-search/providers/searxng.js';
import { createTavilyProvider } from '../../../../agent/tools/web-search/providers/tavily.js';
import type { SearchRequest } from '../../../../agent/tools/web-search/types.js';
import { braveErrors, braveResult, startBraveFake } from '../../../fakes/search/brave-fake.js';
import type { FakeHttpServer } from '../../../fakes/search/fake-http-server.js';
import { searxngErrors, searxngResult, startSearxngFake } from '../../../fakes/search/searxng-fake.js';
import { startTavilyFake, tavilyErrors, tavilyResult } from '../../../fakes/search/tavily-fake.js';

const servers: FakeHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function track<Server extends FakeHttpServer>(server: Promise<Server>): Promise<Server> {
  const started = await server;
  servers.push(started);
  return started;
}

const http = { fetch: globalThis.fetch, timeoutMs: 5000 };
const signal = () => new AbortController().signal;
const thaiRequest: SearchRequest = { query: 'ราคาทองคำ', thai: true, timeRange: 'day' };
const plainRequest: SearchRequest = { query: 'python', thai: false };

describe('SearXNG', () => {
  it('reads the captured response and sends format=json, the Thai hint, the time range and an Accept the limiter takes', async () => {
    const fake = await track(startSearxngFake({ limiter: true }));
    const provider = createSearxngProvider(`${fake.url}/`, http);
    const outcome = await provider.search(thaiRequest, signal());
    expect(outcome.ok && outcome.results.length).toBe(30);
    const request = fake.requests[0];
    expect(request?.path).toBe('/search');
    expect(Object.fromEntries(request?.query ?? [])).toMatchObject({ q: 'ราคาทองคำ', format: 'json', language: 'th', time_range: 'day' });
    expect(request?.headers.accept).toContain('text/html');
    expect(request?.headers['accept-language']).toBeTruthy();
    expect(request?.headers['user-agent']).not.toMatch(/curl|python-requests|node-fetch/i);
  });

  it('sends no language for non-Thai queries and keeps a base path', async () => {
    const fake = await track(startSearxngFake());
    await createSearxngProvider(fake.url, http).search(plainRequest, signal());
    expect(fake.requests[0]?.query.has('language')).toBe(false);
    expect(fake.requests[0]?.query.has('time_range')).toBe(false);
  });

  it('tolerates missing fields and results without url, with or without number_of_results', async () => {
    const fake = await track(
      startSearxngFake({
        numberOfResults: false,
        answer: () => [
          { url: 'https://a.com/', title: 'A' },
          { title: 'no url' },
          searxngResult({ url: 'https://b.com/', title: 'B', content: '3 days ago · B text', publishedDate: null }),
          { url: 'https://c.com/', title: null, content: null },
        ],
      }),
    );
    const outcome = await createSearxngProvider(fake.url, http).search(plainRequest, signal());
    expect(outcome).toEqual({
      ok: true,
      cached: false,
      results: [
        { url: 'https://a.com/', title: 'A', snippet: '' },
        { url: 'https://b.com/', title: 'B', snippet: '3 days ago · B text' },
        { url: 'https://c.com/', title: '', snippet: '' },
      ],
    });
  });

  it('reports suspended engines (200, no results) as a failure, but a plain empty answer as no results', async () => {
    const suspended = await track(
      startSearxngFake({
        answer: () => [],
        unresponsive: [
          ['brave', 'Suspended: too many requests'],
          ['duckduckgo', 'timeout'],
        ],
      }),
    );
    expect(await createSearxngProvider(suspended.url, http).search(plainRequest, signal())).toEqual({
      ok: false,
      kind: 'engines-unresponsive',
      detail: 'brave Suspended: too many requests; duckduckgo timeout',
    });
    const empty = await track(startSearxngFake({ answer: () => [] }));
    expect(await createSearxngProvider(empty.url, http).search(plainRequest, signal())).toEqual({ ok: true, results: [], cached: false });
  });

  it.each([
    ['403 HTML (format not enabled)', searxngErrors.formatDisabled(), 'HTTP 403: Forbidden'],
    ['400 JSON', searxngErrors.badParameter('Invalid language'), 'HTTP 400: Invalid language'],
    ['500 JSON', searxngErrors.searchError(), 'HTTP 500: search error'],
  ])('maps %s to an http-error', async (_name, response, detail) => {
    const fake = await track(startSearxngFake());
    fake.script.push(response);
    expect(await createSearxngProvider(fake.url, http).search(plainRequest, signal())).toEqual({ ok: false, kind: 'http-error', detail });
  });

  it('waits out a short Retry-After once, then succeeds', async () => {
    const fake = await track(startSearxngFake());
    fake.script.push(searxngErrors.tooManyRequests(0));
    const outcome = await createSearxngProvider(fake.url, http).search(plainRequest, signal());
    expect(outcome.ok).toBe(true);
    expect(fake.requests).toHaveLength(2);
  });

  it('fails fast on a long Retry-After and gives up after a second 429', async () => {
    const long = await track(startSearxngFake());
    long.script.push(searxngErrors.tooManyRequests(3600));
    expect(await createSearxngProvider(long.url, http).search(plainRequest, signal())).toMatchObject({ ok: false, kind: 'rate-limited' });
    expect(long.requests).toHaveLength(1);
    const twice = await track(startSearxngFake());
    twice.script.push(searxngErrors.tooManyRequests(0), searxngErrors.blocklisted());
    expect(await createSearxngProvider(twice.url, http).search(plainRequest, signal())).toMatchObject({ ok: false, kind: 'rate-limited' });
    expect(twice.requests).toHaveLength(2);
  });

  it('times out on a hanging instance, and reports an unreachable one', async () => {
    const fake = await track(startSearxngFake());
    fake.script.push(searxngErrors.hang(5000));
    expect(await createSearxngProvider(fake.url, { ...http, timeoutMs: 100 }).search(plainRequest, signal())).toMatchObject({ ok: false, kind: 'timeout' });
    const closed = await startSearxngFake();
    await closed.close();
    expect(await createSearxngProvider(closed.url, http).search(plainRequest, signal())).toMatchObject({ ok: false, kind: 'unreachable' });
  });

  it('stops at once when the turn is cancelled', async () => {
    const fake = await track(startSearxngFake());
    fake.script.push(searxngErrors.hang(5000));
    const controller = new AbortController();
    const pending = createSearxngProvider(fake.url, http).search(plainRequest, controller.signal);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, kind: 'aborted' });
  });
});

describe('Brave', () => {
  it('reads the captured response with HTML decoded, and sends the token, search_lang=th and freshness', async () => {
    const fake = await track(startBraveFake({ apiKey: 'brave-test-key' }));
    const outcome = await createBraveProvider(fake.url, 'brave-test-key', http).search(thaiRequest, signal());
    if (!outcome.ok) throw new Error(outcome.detail);
    expect(outcome.results).toHaveLength(20);
    expect(outcome.results.some((result) => /<strong>|&gt;|&#x27;|&amp;/.test(result.snippet))).toBe(false);
    expect(outcome.results[1]?.snippet.startsWith('Python is a high-level, general-purpose programming language.')).toBe(true);
    const request = fake.requests[0];
    expect(request?.headers['x-subscription-token']).toBe('brave-test-key');
    expect(Object.fromEntries(request?.query ?? [])).toMatchObject({ q: 'ราคาทองคำ', search_lang: 'th', freshness: 'pd' });
    expect(request?.query.has('country')).toBe(false);
    expect(request?.query.has('ui_lang')).toBe(false);
  });

  it('decodes entities in titles and keeps page_age (or age) as the evidence date', async () => {
    const fake = await track(
      startBraveFake({
        apiKey: 'k',
        answer: () => [
          braveResult({ url: 'https://a.com/', title: 'Tom &amp; Jerry', description: 'it&#x27;s <strong>new</strong>', page_age: '2026-03-01T10:00:00' }),
          braveResult({ url: 'https://b.com/', title: 'B', age: '3 days ago' }),
        ],
      }),
    );
    const outcome = await createBraveProvider(fake.url, 'k', http).search(plainRequest, signal());
    expect(outcome).toEqual({
      ok: true,
      cached: false,
      results: [
        { url: 'https://a.com/', title: 'Tom & Jerry', snippet: "it's new", publishedAt: '2026-03-01T10:00:00' },
        { url: 'https://b.com/', title: 'B', snippet: '', publishedAt: '3 days ago' },
      ],
    });
  });

  it('treats a response without `web` as no web results, and reads `news` when present', async () => {
    const noWeb = await track(startBraveFake({ apiKey: 'k', omitWeb: true }));
    expect(await createBraveProvider(noWeb.url, 'k', http).search(plainRequest, signal())).toEqual({ ok: true, results: [], cached: false });
    const news = await track(
      startBraveFake({ apiKey: 'k', omitWeb: true, news: [braveResult({ url: 'https://news.com/a', title: 'ข่าว', description: 'ข่าวด่วน' })] }),
    );
    const outcome = await createBraveProvider(news.url, 'k', http).search(plainRequest, signal());
    expect(outcome.ok && outcome.results.map((result) => result.url)).toEqual(['https://news.com/a']);
  });

  it('reports an invalid token (422 SUBSCRIPTION_TOKEN_INVALID) and an HTML gateway error', async () => {
    const fake = await track(startBraveFake({ apiKey: 'right' }));
    expect(await createBraveProvider(fake.url, 'wrong', http).search(plainRequest, signal())).toEqual({
      ok: false,
      kind: 'http-error',
      detail: 'HTTP 422: SUBSCRIPTION_TOKEN_INVALID: The provided subscription token is invalid.',
    });
    fake.script.push(braveErrors.gatewayHtml());
    expect(await createBraveProvider(fake.url, 'right', http).search(plainRequest, signal())).toMatchObject({ ok: false, detail: 'HTTP 502: 502 Bad Gateway' });
  });

  it('the fake refuses country=TH and ui_lang=th-TH like Brave does (the provider never sends them)', async () => {
    const fake = await track(startBraveFake({ apiKey: 'k' }));
    const country = await fetch(`${fake.url}/res/v1/web/search?q=x&country=TH`, { headers: { 'X-Subscription-Token': 'k' } });
    const uiLang = await fetch(`${fake.url}/res/v1/web/search?q=x&ui_lang=th-TH`, { headers: { 'X-Subscription-Token': 'k' } });
    expect([country.status, uiLang.status]).toEqual([422, 422]);
  });

  it('honours X-RateLimit-Reset on a 429 and retries once', async () => {
    const fake = await track(startBraveFake({ apiKey: 'k' }));
    fake.script.push(braveErrors.rateLimited(0));
    expect((await createBraveProvider(fake.url, 'k', http).search(plainRequest, signal())).ok).toBe(true);
    expect(fake.requests).toHaveLength(2);
    fake.script.push(braveErrors.rateLimited(0), braveErrors.rateLimited(0));
    expect(await createBraveProvider(fake.url, 'k', http).search(plainRequest, signal())).toMatchObject({ ok: false, kind: 'rate-limited' });
  });

  it('caps the query at 400 characters and 50 words', async () => {
    const fake = await track(startBraveFake({ apiKey: 'k' }));
    await createBraveProvider(fake.url, 'k', http).search({ query: Array.from({ length: 80 }, (_, index) => `word${index}`).join(' '), thai: false }, signal());
    const sent = fake.requests[0]?.query.get('q') ?? '';
    expect(sent.split(' ')).toHaveLength(50);
    expect(sent.length).toBeLessThanOrEqual(400);
  });
});

describe('Tavily', () => {
  it('POSTs with a Bearer key, include_domains, time_range and the Thailand boost; accepts response_time as a string', async () => {
    const fake = await track(
      startTavilyFake({
        apiKey: 'tvly-test',
        responseTimeAsString: true,
        answer: () => [tavilyResult({ title: 'ยื่นภาษี', url: 'https://www.rd.go.th/a', content: 'ภายในวันที่ 8 เมษายน', published_date: '2026-03-01' })],
      }),
    );
    const outcome = await createTavilyProvider(fake.url, 'tvly-test', http).search({ ...thaiRequest, includeDomains: ['rd.go.th'] }, signal());
    expect(outcome).toEqual({
      ok: true,
      cached: false,
      results: [{ title: 'ยื่นภาษี', url: 'https://www.rd.go.th/a', snippet: 'ภายในวันที่ 8 เมษายน', publishedAt: '2026-03-01' }],
    });
    const request = fake.requests[0];
    expect(request?.headers.authorization).toBe('Bearer tvly-test');
    expect(JSON.parse(request?.body ?? '{}')).toMatchObject({
      query: 'ราคาทองคำ',
      time_range: 'day',
      include_domains: ['rd.go.th'],
      country: 'thailand',
      topic: 'general',
    });
  });

  it.each([
    ['401', tavilyErrors.unauthorized(), 'HTTP 401: Unauthorized: missing or invalid API key.'],
    ['400', tavilyErrors.badRequest(), 'HTTP 400: Invalid request body.'],
    ['432', tavilyErrors.planLimit(), "HTTP 432: This request exceeds your plan's set usage limit."],
    ['433', tavilyErrors.payAsYouGoLimit(), 'HTTP 433: This request exceeds the pay-as-you-go limit.'],
  ])('maps %s {"detail":{"error"}} to an http-error', async (_status, response, detail) => {
    const fake = await track(startTavilyFake({ apiKey: 'k' }));
    fake.script.push(response);
    expect(await createTavilyProvider(fake.url, 'k', http).search(plainRequest, signal())).toEqual({ ok: false, kind: 'http-error', detail });
  });

  it('honours the retry-after header and the keyless retry_after_seconds body', async () => {
    const fake = await track(startTavilyFake({ apiKey: 'k' }));
    fake.script.push(tavilyErrors.rateLimited(0));
    expect((await createTavilyProvider(fake.url, 'k', http).search(plainRequest, signal())).ok).toBe(true);
    fake.script.push(tavilyErrors.keylessRateLimited(0));
    expect((await createTavilyProvider(fake.url, 'k', http).search(plainRequest, signal())).ok).toBe(true);
    fake.script.push(tavilyErrors.keylessRateLimited(120));
    expect(await createTavilyProvider(fake.url, 'k', http).search(plainRequest, signal())).toMatchObject({ ok: false, kind: 'rate-limited' });
    expect(fake.requests).toHaveLength(5);
  });

  it('rejects a body that is not a Tavily answer', async () => {
    const fake = await track(startTavilyFake({ apiKey: 'k', answer: () => ({ status: 200, body: '{"results": "none"}' }) }));
    expect(await createTavilyProvider(fake.url, 'k', http).search(plainRequest, signal())).toMatchObject({ ok: false, kind: 'invalid-response' });
  });
});

describe('retryAfterMs', () => {
  const now = Date.parse('2026-03-05T03:00:00Z');
  it.each([
    [{ 'retry-after': '2' }, '', 2000],
    [{ 'retry-after': '1.5' }, '', 1500],
    [{ 'retry-after': 'Thu, 05 Mar 2026 03:00:30 GMT' }, '', 30_000],
    [{ 'x-ratelimit-reset': '1, 1419704' }, '', 1000],
    [{}, '{"error":{"retry_after_seconds":7}}', 7000],
    [{}, '{"detail":{"retry_after":3}}', 3000],
    [{}, 'Too Many Requests', undefined],
  ])('%j %s → %s', (headers, body, expected) => {
    expect(retryAfterMs(new Headers(headers), body, now)).toBe(expected);
  });
});
