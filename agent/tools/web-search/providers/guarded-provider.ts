import { createHash } from 'node:crypto';
import Bottleneck from 'bottleneck';
import type { Keyv } from 'keyv';
import { z } from 'zod';
import { describeError } from '../../../../src/shared/describe-error.js';
import type { JobLimiter } from '../../../../src/shared/job-limiter.js';
import type { Logger } from '../../../../src/shared/log.js';
import { normalizeForMatch } from '../thai-text.js';
import type { ProviderName, ProviderOutcome, RawResult, SearchProvider, SearchRequest } from '../types.js';

// Every provider call goes through a per-provider limiter (Brave's free tier allows 1 request/s, which
// needs spacing, not only concurrency 1) and a keyv cache keyed by provider + normalized query + time
// range + language (+ site restriction).

export interface ProviderLimit {
  maxConcurrent: number;
  /** Minimum milliseconds between request starts. */
  minTime: number;
}

/** Makes a provider's limiter; the composition root may hand one shared by several processes (src/limits/). */
export type ProviderLimiterFactory = (provider: ProviderName, limit: ProviderLimit) => JobLimiter;

/** The default: a bottleneck limiter in this process. */
export const inProcessLimiter: ProviderLimiterFactory = (_provider, limit) => {
  const limiter = new Bottleneck({ maxConcurrent: limit.maxConcurrent, minTime: limit.minTime });
  return { schedule: (job) => limiter.schedule(job), close: () => limiter.disconnect() };
};

export const providerLimits: Record<ProviderName, ProviderLimit> = {
  searxng: { maxConcurrent: 3, minTime: 0 },
  brave: { maxConcurrent: 1, minTime: 1050 },
  tavily: { maxConcurrent: 2, minTime: 250 },
};

const cacheVersion = 'v1';
const cachedResults = z.array(z.object({ title: z.string(), url: z.string(), snippet: z.string(), publishedAt: z.string().optional() }));

/** Cache key: readable prefix, hashed query (Thai queries make long keys). */
export function cacheKey(provider: ProviderName, request: SearchRequest): string {
  const parts = [
    normalizeForMatch(request.query, 1000),
    request.timeRange ?? 'any',
    request.thai ? 'th' : 'any',
    [...(request.includeDomains ?? [])].sort().join(','),
  ];
  const digest = createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 40);
  return `web-search:${cacheVersion}:${provider}:${digest}`;
}

export interface GuardOptions {
  cache: Keyv;
  ttlSeconds: number;
  log: Logger;
  limit?: ProviderLimit;
  /** Default: `inProcessLimiter`. */
  limiter?: ProviderLimiterFactory;
}

async function readCache(cache: Keyv, key: string, log: Logger): Promise<RawResult[] | undefined> {
  try {
    const stored: unknown = await cache.get(key);
    if (stored === undefined) return undefined;
    const parsed = cachedResults.safeParse(stored);
    return parsed.success ? parsed.data : undefined;
  } catch (error) {
    log.warn({ err: error }, 'web_search: cache read failed');
    return undefined;
  }
}

async function writeCache(cache: Keyv, key: string, results: RawResult[], ttlMs: number, log: Logger): Promise<void> {
  try {
    await cache.set(key, results, ttlMs);
  } catch (error) {
    log.warn({ err: error }, 'web_search: cache write failed');
  }
}

export function guardProvider(provider: SearchProvider, options: GuardOptions): SearchProvider {
  const limit = options.limit ?? providerLimits[provider.name];
  const limiter = (options.limiter ?? inProcessLimiter)(provider.name, limit);
  const ttlMs = options.ttlSeconds * 1000;
  return {
    name: provider.name,
    siteRestriction: provider.siteRestriction,
    async search(request, signal): Promise<ProviderOutcome> {
      const key = cacheKey(provider.name, request);
      const cached = await readCache(options.cache, key, options.log);
      if (cached) return { ok: true, results: cached, cached: true };
      if (signal.aborted) return { ok: false, kind: 'aborted', detail: 'the turn was cancelled' };
      let ran = false;
      let outcome: ProviderOutcome;
      try {
        outcome = await limiter.schedule(() => {
          ran = true;
          return provider.search(request, signal);
        });
      } catch (error) {
        if (ran) throw error;
        // The limiter failed (a shared one whose Redis is down): a failed search the model is told about.
        options.log.warn({ provider: provider.name, error: describeError(error) }, 'web_search: limiter failed');
        return { ok: false, kind: 'unreachable', detail: `the search limiter failed: ${describeError(error)}` };
      }
      // Only answers are cached; failures must be retried on the next question.
      if (outcome.ok) await writeCache(options.cache, key, outcome.results, ttlMs, options.log);
      return outcome;
    },
  };
}
