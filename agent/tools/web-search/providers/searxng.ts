import { z } from 'zod';
import type { ProviderOutcome, RawResult, SearchProvider, SearchRequest } from '../types.js';
import { type ProviderHttpOptions, describeErrorBody, httpRequest, userAgent } from './http-request.js';

// SearXNG `/search?format=json` (reference §1). A 200 with no results and suspended engines is the usual
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
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { ok: false, kind: 'invalid-response', detail: 'not JSON (is format=json enabled in settings.yml?)' };
  }
  const shaped = response.safeParse(parsed);
  if (!shaped.success) return { ok: false, kind: 'invalid-response', detail: 'no results list' };
  const results: RawResult[] = [];
  for (const item of shaped.data.results) {
    const entry = result.safeParse(item);
    if (!entry.success) continue;
    results.push({
      url: entry.data.url,
      title: entry.data.title ?? '',
      snippet: entry.data.content ?? '',
      ...(entry.data.publishedDate ? { publishedAt: entry.data.publishedDate } : {}),
    });
  }
  const unresponsive = shaped.data.unresponsive_engines ?? [];
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
      const reply = await httpRequest({
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
      });
      if (!reply.ok) return reply;
      if (reply.status !== 200) return { ok: false, kind: 'http-error', detail: describeErrorBody(reply.status, reply.body) };
      return parseSearxng(reply.body);
    },
  };
}
