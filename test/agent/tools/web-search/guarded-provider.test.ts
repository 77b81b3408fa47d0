import { Keyv } from 'keyv';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheKey, guardProvider, providerLimits } from '../../../../agent/tools/web-search/providers/guarded-provider.js';
import { createBraveProvider } from '../../../../agent/tools/web-search/providers/brave.js';
import { createSearxngProvider } from '../../../../agent/tools/web-search/providers/searxng.js';
import type { SearchRequest } from '../../../../agent/tools/web-search/types.js';
import { silentLogger } from '../../../../src/shared/log.js';
import { startBraveFake } from '../../../fakes/search/brave-fake.js';
import type { FakeHttpServer } from '../../../fakes/search/fake-http-server.js';
import { searxngErrors, startSearxngFake } from '../../../fakes/search/searxng-fake.js';

const servers: FakeHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const http = { fetch: globalThis.fetch, timeoutMs: 5000 };
const signal = () => new AbortController().signal;

describe('cache', () => {
  it('answers a repeated query from the cache, keyed by provider, normalized query, time range and language', async () => {
    const fake = await startSearxngFake();
    servers.push(fake);
    const store = new Map<string, unknown>();
    const cache = new Keyv({ store });
    const provider = guardProvider(createSearxngProvider(fake.url, http), { cache, ttlSeconds: 900, log: silentLogger() });
    const request: SearchRequest = { query: 'ราคาทอง  วันนี้', thai: true };
    expect(await provider.search(request, signal())).toMatchObject({ ok: true, cached: false });
    expect(await provider.search({ ...request, query: 'ราคาทอง วันนี้' }, signal())).toMatchObject({ ok: true, cached: true });
    expect(fake.requests).toHaveLength(1);
    await provider.search({ ...request, timeRange: 'day' }, signal());
    await provider.search({ ...request, thai: false }, signal());
    await provider.search({ ...request, includeDomains: ['docs.python.org'] }, signal());
    expect(fake.requests).toHaveLength(4);
    expect([...store.keys()].every((key) => key.includes('web-search:v1:searxng:'))).toBe(true);
  });

  it('stores answers with the configured TTL and never stores failures', async () => {
    const fake = await startSearxngFake();
    servers.push(fake);
    const store = new Map<string, unknown>();
    const cache = new Keyv({ store });
    const provider = guardProvider(createSearxngProvider(fake.url, http), { cache, ttlSeconds: 600, log: silentLogger() });
    fake.script.push(searxngErrors.searchError());
    expect((await provider.search({ query: 'x', thai: false }, signal())).ok).toBe(false);
    expect(store.size).toBe(0);
    const before = Date.now();
    await provider.search({ query: 'x', thai: false }, signal());
    const [entry] = [...store.values()];
    const expires = typeof entry === 'string' ? (JSON.parse(entry) as { expires?: unknown }).expires : undefined;
    expect(typeof expires).toBe('number');
    expect(Number(expires)).toBeGreaterThanOrEqual(before + 600_000);
    expect(Number(expires)).toBeLessThan(before + 700_000);
  });

  it('ignores a corrupt cache entry and a failing cache store', async () => {
    const fake = await startSearxngFake();
    servers.push(fake);
    const cache = new Keyv();
    const request: SearchRequest = { query: 'python', thai: false };
    await cache.set(cacheKey('searxng', request), [{ not: 'a result' }]);
    const provider = guardProvider(createSearxngProvider(fake.url, http), { cache, ttlSeconds: 60, log: silentLogger() });
    expect(await provider.search(request, signal())).toMatchObject({ ok: true, cached: false });
    const broken = new Keyv({
      store: {
        get: () => Promise.reject(new Error('disk full')),
        set: () => Promise.reject(new Error('disk full')),
        delete: () => Promise.resolve(true),
        clear: () => Promise.resolve(),
      },
    });
    const unreliable = guardProvider(createSearxngProvider(fake.url, http), { cache: broken, ttlSeconds: 60, log: silentLogger() });
    expect(await unreliable.search(request, signal())).toMatchObject({ ok: true, cached: false });
  });
});

describe('limiter', () => {
  it('spaces Brave requests at least one second apart, one at a time', async () => {
    expect(providerLimits.brave.maxConcurrent).toBe(1);
    expect(providerLimits.brave.minTime).toBeGreaterThanOrEqual(1000);
    const fake = await startBraveFake({ apiKey: 'k' });
    servers.push(fake);
    const provider = guardProvider(createBraveProvider(fake.url, 'k', http), { cache: new Keyv(), ttlSeconds: 60, log: silentLogger() });
    const outcomes = await Promise.all([provider.search({ query: 'a', thai: false }, signal()), provider.search({ query: 'b', thai: false }, signal())]);
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(fake.maxInFlight()).toBe(1);
    expect(fake.requests.map((request) => request.query.get('q'))).toEqual(['a', 'b']);
  });
});
