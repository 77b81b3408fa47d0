import { z } from 'zod';
import type { ProviderOutcome, RawResult, SearchProvider, SearchRequest, TimeRange } from '../types.js';
import { type ProviderHttpOptions, describeErrorBody, httpRequest, userAgent } from './http-request.js';
import { decodeHtml } from './html-text.js';

// Brave Web Search (reference §2). Thai: `search_lang=th` only — Brave has no `country=TH` or
// `ui_lang=th-TH` and answers 422 to both. `web` may be missing; descriptions carry HTML.

const freshness: Record<TimeRange, string> = { day: 'pd', week: 'pw', month: 'pm', year: 'py' };
const maxQueryLength = 400;
const maxQueryWords = 50;

const result = z.object({
  url: z.string(),
  title: z.string().nullish(),
  description: z.string().nullish(),
  page_age: z.string().nullish(),
  age: z.string().nullish(),
});
const resultList = z.object({ results: z.array(z.unknown()).optional() }).nullish();
const response = z.object({ web: resultList, news: resultList });

function braveQuery(query: string): string {
  return query.split(/\s+/).slice(0, maxQueryWords).join(' ').slice(0, maxQueryLength);
}

function searchUrl(baseUrl: string, request: SearchRequest): string {
  const url = new URL('res/v1/web/search', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  url.searchParams.set('q', braveQuery(request.query));
  url.searchParams.set('count', '20');
  url.searchParams.set('safesearch', 'moderate');
  if (request.thai) url.searchParams.set('search_lang', 'th');
  if (request.timeRange) url.searchParams.set('freshness', freshness[request.timeRange]);
  return url.toString();
}

function toResults(items: readonly unknown[]): RawResult[] {
  const results: RawResult[] = [];
  for (const item of items) {
    const entry = result.safeParse(item);
    if (!entry.success) continue;
    const publishedAt = entry.data.page_age ?? entry.data.age;
    results.push({
      url: entry.data.url,
      title: decodeHtml(entry.data.title ?? ''),
      snippet: decodeHtml(entry.data.description ?? ''),
      ...(publishedAt ? { publishedAt } : {}),
    });
  }
  return results;
}

export function parseBrave(body: string): ProviderOutcome {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, kind: 'invalid-response', detail: 'not JSON' };
  }
  const shaped = response.safeParse(parsed);
  if (!shaped.success) return { ok: false, kind: 'invalid-response', detail: 'unexpected response shape' };
  const web = toResults(shaped.data.web?.results ?? []);
  const news = toResults(shaped.data.news?.results ?? []);
  return { ok: true, results: [...web, ...news], cached: false };
}

export function createBraveProvider(baseUrl: string, apiKey: string, options: ProviderHttpOptions): SearchProvider {
  return {
    name: 'brave',
    siteRestriction: 'query',
    async search(request, signal) {
      const reply = await httpRequest({
        url: searchUrl(baseUrl, request),
        fetch: options.fetch,
        timeoutMs: options.timeoutMs,
        signal,
        init: {
          method: 'GET',
          headers: {
            Accept: 'application/json',
            'Accept-Encoding': 'gzip',
            'X-Subscription-Token': apiKey,
            'User-Agent': userAgent,
          },
        },
      });
      if (!reply.ok) return reply;
      if (reply.status !== 200) return { ok: false, kind: 'http-error', detail: describeErrorBody(reply.status, reply.body) };
      return parseBrave(reply.body);
    },
  };
}
