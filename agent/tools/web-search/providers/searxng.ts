import { z } from 'zod';
import type { ProviderOutcome, SearchProvider, SearchRequest } from '../types.js';
import { type ProviderHttpOptions, userAgent } from './http-request.js';
import { collectResults, parseJsonBody, requestProvider } from './provider-json.js';

// SearXNG `/search?format=json`. A 200 with no results and suspended engines is the usual
// real-world failure and is reported as one, not as "nothing found".

const result = z.object({
  url: z.string(),
  title: z.string().nullish(),
  content: z.string().nullish(),
  publishedDate: z.string().nullish(),
});
const response = z.object({
  results: z.array(z.unknown()),
  unresponsive_engines: z.array(z.unknown()).optional(),
});

function searchUrl(baseUrl: string, request: SearchRequest): string {
  const url = new URL('search', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  url.searchParams.set('q', request.query);
  url.searchParams.set('format', 'json');
  url.searchParams.set('pageno', '1');
  url.searchParams.set('safesearch', '1');
  if (request.thai) url.searchParams.set('language', 'th');
  if (request.timeRange) url.searchParams.set('time_range', request.timeRange);
  return url.toString();
}

function engineNames(unresponsive: readonly unknown[]): string {
  return unresponsive
    .map((pair) => (Array.isArray(pair) ? pair.map(String).join(' ') : String(pair)))
    .join('; ')
    .slice(0, 200);
}

export function parseSearxng(body: string): ProviderOutcome {
  const parsed = parseJsonBody(body, response, 'not JSON (is format=json enabled in settings.yml?)');
  if (!parsed.ok) return parsed;
  const results = collectResults(parsed.data.results, result, (entry) => ({
    url: entry.url,
    title: entry.title ?? '',
    snippet: entry.content ?? '',
    ...(entry.publishedDate ? { publishedAt: entry.publishedDate } : {}),
  }));
  const unresponsive = parsed.data.unresponsive_engines ?? [];
  if (results.length === 0 && unresponsive.length > 0) {
    return { ok: false, kind: 'engines-unresponsive', detail: engineNames(unresponsive) };
  }
  return { ok: true, results, cached: false };
}

export function createSearxngProvider(baseUrl: string, options: ProviderHttpOptions): SearchProvider {
  return {
    name: 'searxng',
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
              // The SearXNG limiter refuses clients whose Accept lacks text/html (Open WebUI does the same).
              Accept: 'application/json, text/html;q=0.9',
              'Accept-Encoding': 'gzip, deflate',
              'Accept-Language': request.thai ? 'th,en;q=0.8' : 'en,th;q=0.5',
              'User-Agent': userAgent,
            },
          },
        },
        parseSearxng,
      );
    },
  };
}
