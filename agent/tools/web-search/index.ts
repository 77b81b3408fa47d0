import type { Keyv } from 'keyv';
import type { Logger } from '../../../src/shared/log.js';
import { createDeepResearchTool, createResearchRunner } from '../deep-research/index.js';
import type { ResearchRunner } from '../deep-research/index.js';
import type { AnyTool } from '../tool.js';
import type { ProviderLimit, ProviderLimiterFactory } from './providers/guarded-provider.js';
import { type SearchSettings, selectProvider } from './providers/select-provider.js';
import { credentialEgressScan, scannedProvider } from './query-guard.js';
import { createSearchPipeline } from './search-pipeline.js';
import { createWebSearchTool } from './web-search-tool.js';

// Composition of the web tools: provider (limiter + cache) → pipeline → `web_search` and `deep_research`.

export interface WebToolsOptions {
  settings: SearchSettings;
  /** keyv@5 instance; keys are prefixed `web-search:`. */
  cache: Keyv;
  log: Logger;
  /** Tests point this at fakes. */
  fetch?: typeof fetch;
  /** For dates and "this year" (BOT_TIMEZONE); default Asia/Bangkok. */
  timeZone?: string;
  /** Overrides the provider's limit (tests). */
  limit?: ProviderLimit;
  /** The provider's limiter; default: bottleneck in this process. Several processes share one through Redis. */
  limiter?: ProviderLimiterFactory;
  /** Saeng's configured secrets: a query carrying one (or any credential shape) is never sent. */
  secrets: readonly string[];
}

/** `[web_search, deep_research]` and the research runner when a provider is configured; nothing otherwise. */
export function createWebTools(options: WebToolsOptions): { tools: AnyTool[]; research: ResearchRunner | null } {
  const selected = selectProvider(options.settings, {
    cache: options.cache,
    log: options.log,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.limit ? { limit: options.limit } : {}),
    ...(options.limiter ? { limiter: options.limiter } : {}),
  });
  if (!selected) return { tools: [], research: null };
  const scan = credentialEgressScan(options.secrets);
  const provider = scannedProvider(selected, scan, options.log);
  const pipeline = createSearchPipeline({
    provider,
    scan,
    llmFilter: options.settings.llmFilter,
    timeZone: options.timeZone ?? 'Asia/Bangkok',
  });
  const research = createResearchRunner(pipeline);
  options.log.info({ provider: provider.name, llmFilter: options.settings.llmFilter }, 'web_search: enabled');
  return { tools: [createWebSearchTool(pipeline), createDeepResearchTool(research)], research };
}

export type { ResearchRunner } from '../deep-research/index.js';
export type { SearchSettings } from './providers/select-provider.js';
export type { ProviderLimit, ProviderLimiterFactory } from './providers/guarded-provider.js';
export { sourcesNoticeKey } from './format-results.js';
