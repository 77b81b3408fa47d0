import { z } from 'zod';
import type { ProviderOutcome, RawResult, SearchProvider, SearchRequest, TimeRange } from '../types.js';
import { type ProviderHttpOptions, userAgent } from './http-request.js';
import { collectResults, parseJsonBody, requestProvider } from './provider-json.js';
import { decodeHtml } from './html-text.js';

// Brave Web Search. Thai: `search_lang=th` only — Brave has no `country=TH` or
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

function toResult(entry: z.infer<typeof result>): RawResult {
  const publishedAt = entry.page_age ?? entry.age;
  return {
    url: entry.url,
    title: decodeHtml(entry.title ?? ''),
    snippet: decodeHtml(entry.description ?? ''),
    ...(publishedAt ? { publishedAt } : {}),
  };
}

export function parseBrave(body: string): ProviderOutcome {
  const parsed = parseJsonBody(body, response);
  if (!parsed.ok) return parsed;
  const web = collectResults(parsed.data.web?.results ?? [], result, toResult);
  const news = collectResults(parsed.data.news?.results ?? [], result, toResult);
  return { ok: true, results: [...web, ...news], cached: false };
}

export function createBraveProvider(baseUrl: string, apiKey: string, options: ProviderHttpOptions): SearchProvider {
  return {
    name: 'brave',
    siteRestriction: 'query',
    async search(request, signal) {
      return requestProvider(
        {
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
        },
        parseBrave,
      );
    },
  };
}
