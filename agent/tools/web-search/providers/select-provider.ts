import type { Keyv } from 'keyv';
import type { Logger } from '../../../../src/shared/log.js';
import type { SearchProvider } from '../types.js';
import { createBraveProvider } from './brave.js';
import { type ProviderLimit, type ProviderLimiterFactory, guardProvider } from './guarded-provider.js';
import { createSearxngProvider } from './searxng.js';
import { createTavilyProvider } from './tavily.js';

// `provider` picks one provider; 'auto' takes the first of SearXNG, Brave, Tavily that is configured.

/** Plain search settings (the composition root maps its configuration onto them). */
export interface SearchSettings {
  provider: 'auto' | 'searxng' | 'brave' | 'tavily' | 'none';
  searxngUrl: string | undefined;
  braveApiKey: string | undefined;
  braveBaseUrl: string;
  tavilyApiKey: string | undefined;
  tavilyBaseUrl: string;
  /** The batched YES/NO relevance check by the model. */
  /** `on`: the model judges only results code cannot (word-coverage.ts); `always`: every result; `off`: none. */
  llmFilter: 'on' | 'always' | 'off';
  timeoutMs: number;
  cacheTtlSeconds: number;
}

function createProvider(settings: SearchSettings, fetchImplementation: typeof fetch): SearchProvider | null {
  const http = { fetch: fetchImplementation, timeoutMs: settings.timeoutMs };
  const searxng = settings.searxngUrl ? createSearxngProvider(settings.searxngUrl, http) : null;
  const brave = settings.braveApiKey ? createBraveProvider(settings.braveBaseUrl, settings.braveApiKey, http) : null;
  const tavily = settings.tavilyApiKey ? createTavilyProvider(settings.tavilyBaseUrl, settings.tavilyApiKey, http) : null;
  switch (settings.provider) {
    case 'none':
      return null;
    case 'searxng':
      return searxng;
    case 'brave':
      return brave;
    case 'tavily':
      return tavily;
    case 'auto':
      return searxng ?? brave ?? tavily;
  }
}

export interface ProviderServices {
  cache: Keyv;
  log: Logger;
  fetch?: typeof fetch;
  limit?: ProviderLimit;
  limiter?: ProviderLimiterFactory;
}

/** The configured provider behind its limiter and cache, or null when search is not configured. */
export function selectProvider(settings: SearchSettings, services: ProviderServices): SearchProvider | null {
  const provider = createProvider(settings, services.fetch ?? globalThis.fetch);
  if (!provider) {
    if (settings.provider !== 'none' && settings.provider !== 'auto') {
      services.log.warn({ provider: settings.provider }, 'web_search: the chosen provider has no URL or key; web search is off');
    }
    return null;
  }
  return guardProvider(provider, {
    cache: services.cache,
    ttlSeconds: settings.cacheTtlSeconds,
    log: services.log,
    ...(services.limit ? { limit: services.limit } : {}),
    ...(services.limiter ? { limiter: services.limiter } : {}),
  });
}
