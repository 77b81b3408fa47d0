import type { Keyv } from 'keyv';
import type { Config } from '../../../../src/config.js';
import type { Logger } from '../../../../src/shared/log.js';
import type { SearchProvider } from '../types.js';
import { createBraveProvider } from './brave.js';
import { type ProviderLimit, guardProvider } from './guarded-provider.js';
import { createSearxngProvider } from './searxng.js';
import { createTavilyProvider } from './tavily.js';

// SEARCH_PROVIDER picks one provider; 'auto' takes the first of SearXNG, Brave, Tavily that is configured.

export type SearchConfig = Pick<
  Config,
  | 'SEARCH_PROVIDER'
  | 'SEARXNG_URL'
  | 'BRAVE_API_KEY'
  | 'BRAVE_API_BASE_URL'
  | 'TAVILY_API_KEY'
  | 'TAVILY_API_BASE_URL'
  | 'SEARCH_LLM_FILTER'
  | 'SEARCH_TIMEOUT_MS'
  | 'SEARCH_CACHE_TTL_SECONDS'
>;

function createProvider(config: SearchConfig, fetchImplementation: typeof fetch): SearchProvider | null {
  const http = { fetch: fetchImplementation, timeoutMs: config.SEARCH_TIMEOUT_MS };
  const searxng = config.SEARXNG_URL ? createSearxngProvider(config.SEARXNG_URL, http) : null;
  const brave = config.BRAVE_API_KEY ? createBraveProvider(config.BRAVE_API_BASE_URL, config.BRAVE_API_KEY, http) : null;
  const tavily = config.TAVILY_API_KEY ? createTavilyProvider(config.TAVILY_API_BASE_URL, config.TAVILY_API_KEY, http) : null;
  switch (config.SEARCH_PROVIDER) {
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
}

/** The configured provider behind its limiter and cache, or null when search is not configured. */
export function selectProvider(config: SearchConfig, services: ProviderServices): SearchProvider | null {
  const provider = createProvider(config, services.fetch ?? globalThis.fetch);
  if (!provider) {
    if (config.SEARCH_PROVIDER !== 'none' && config.SEARCH_PROVIDER !== 'auto') {
      services.log.warn({ provider: config.SEARCH_PROVIDER }, 'web_search: the chosen provider has no URL or key; web search is off');
    }
    return null;
  }
  return guardProvider(provider, {
    cache: services.cache,
    ttlSeconds: config.SEARCH_CACHE_TTL_SECONDS,
    log: services.log,
    ...(services.limit ? { limit: services.limit } : {}),
  });
}
