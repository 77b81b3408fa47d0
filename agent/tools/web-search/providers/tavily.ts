import { z } from 'zod';
import type { ProviderOutcome, SearchProvider, SearchRequest } from '../types.js';
import { type ProviderHttpOptions, userAgent } from './http-request.js';
import { collectResults, parseJsonBody, requestProvider } from './provider-json.js';

// Tavily `POST /search`. `site:` in the query is ignored, so site restrictions travel in
// `include_domains`; Tavily has no language parameter, `country: "thailand"` is only a boost.

const maxQueryLength = 400;

const result = z.object({
  url: z.string(),
  title: z.string().nullish(),
  content: z.string().nullish(),
  published_date: z.string().nullish(),
});
const response = z.object({
  results: z.array(z.unknown()),
  // Documented as a number; a docs example once showed a string.
  response_time: z.union([z.number(), z.string()]).nullish(),
});

function requestBody(request: SearchRequest): string {
  return JSON.stringify({
    query: request.query.slice(0, maxQueryLength),
    search_depth: 'basic',
    topic: 'general',
    max_results: 10,
    include_answer: false,
    include_raw_content: false,
    ...(request.timeRange ? { time_range: request.timeRange } : {}),
    ...(request.includeDomains && request.includeDomains.length > 0 ? { include_domains: request.includeDomains } : {}),
    ...(request.thai ? { country: 'thailand' } : {}),
  });
}

export function parseTavily(body: string): ProviderOutcome {
  const parsed = parseJsonBody(body, response);
  if (!parsed.ok) return parsed;
  const results = collectResults(parsed.data.results, result, (entry) => ({
    url: entry.url,
    title: entry.title ?? '',
    snippet: entry.content ?? '',
    ...(entry.published_date ? { publishedAt: entry.published_date } : {}),
  }));
  return { ok: true, results, cached: false };
}

export function createTavilyProvider(baseUrl: string, apiKey: string, options: ProviderHttpOptions): SearchProvider {
  return {
    name: 'tavily',
    siteRestriction: 'include-domains',
    async search(request, signal) {
      return requestProvider(
        {
          url: new URL('search', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString(),
          fetch: options.fetch,
          timeoutMs: options.timeoutMs,
          signal,
          init: {
            method: 'POST',
            headers: {
              Accept: 'application/json',
              'Content-Type': 'application/json',
              Authorization: `Bearer ${apiKey}`,
              'User-Agent': userAgent,
            },
            body: requestBody(request),
          },
        },
        parseTavily,
      );
    },
  };
}
