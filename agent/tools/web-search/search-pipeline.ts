import type { Logger } from '../../../src/shared/log.js';
import type { TextCompleter } from '../../model/index.js';
import { type LayerStats, applyLexicalLayers } from './lexical-layers.js';
import { analyzeIntent } from './query-intent.js';
import { planQuery } from './query-variants.js';
import type { EgressScan } from './query-guard.js';
import { semanticCheck } from './semantic-check.js';
import { coversQuery, queryWords } from './word-coverage.js';
import type { ProviderFailureKind, ProviderOutcome, ScoredCandidate, SearchProvider } from './types.js';
import { dateLine, yearIn } from './years.js';

// variants → provider (concurrently, bounded by the provider's limiter) → layers 1–2 → layer 3 → top N.

export interface SearchServices {
  complete: TextCompleter;
  signal: AbortSignal;
  now(): Date;
  log: Logger;
}

export interface SearchOptions {
  /** Layer 3; deep research skips it because its fact extraction reads every result anyway. */
  semanticCheck?: boolean;
  maxResults?: number;
}

export interface PipelineStats extends LayerStats {
  variants: number;
  cachedVariants: number;
  failedVariants: number;
  /** `not-needed`: every result carried all the query's words, so no model call was made. */
  semantic: 'off' | 'passed' | 'failed-closed' | 'not-needed';
  /** Kept by code (all the query's words in title + snippet) without the model's check. */
  keptByWords: number;
  semanticRejected: number;
}

export type SearchOutcome =
  | { status: 'found'; query: string; results: ScoredCandidate[]; stats: PipelineStats }
  | { status: 'none'; query: string; stats: PipelineStats }
  | { status: 'failed'; query: string; kind: ProviderFailureKind; detail: string };

export interface SearchPipeline {
  readonly providerName: string;
  readonly timeZone: string;
  search(query: string, services: SearchServices, options?: SearchOptions): Promise<SearchOutcome>;
}

/** At most this many results go to the model's YES/NO check (prompt size for a 2B model). */
export const maxCheckedResults = 8;
export const defaultMaxResults = 6;

function firstFailure(outcomes: readonly ProviderOutcome[]): { kind: ProviderFailureKind; detail: string } {
  for (const outcome of outcomes) if (!outcome.ok && outcome.kind !== 'aborted') return outcome;
  for (const outcome of outcomes) if (!outcome.ok) return outcome;
  return { kind: 'invalid-response', detail: 'no outcome' };
}

export function createSearchPipeline(options: {
  provider: SearchProvider;
  llmFilter: 'on' | 'always' | 'off';
  timeZone: string;
  scan: EgressScan;
}): SearchPipeline {
  const { provider, timeZone } = options;
  return {
    providerName: provider.name,
    timeZone,
    async search(query, services, searchOptions = {}) {
      // Checked before any variant is made, cached or sent: the query as the model (or /research's user) wrote it.
      const kinds = options.scan(query);
      if (kinds.length > 0) {
        services.log.warn({ provider: provider.name, kinds }, 'web_search: query not sent, it carries a credential (DLP)');
        return { status: 'failed', query: '', kind: 'credential', detail: 'the query carries a credential' };
      }
      const now = services.now();
      const plan = planQuery(query, provider);
      const intent = analyzeIntent(plan, yearIn(now, timeZone));
      const outcomes = await Promise.all(plan.variants.map((variant) => provider.search(variant, services.signal)));
      const answered = outcomes.flatMap((outcome) => (outcome.ok ? [outcome] : []));
      if (answered.length === 0) {
        const failure = firstFailure(outcomes);
        services.log.warn({ provider: provider.name, kind: failure.kind, detail: failure.detail }, 'web_search: provider failed');
        return { status: 'failed', query: plan.raw, ...failure };
      }
      const lexical = applyLexicalLayers(
        plan,
        intent,
        answered.map((outcome) => outcome.results),
      );
      const stats: PipelineStats = {
        ...lexical.stats,
        variants: plan.variants.length,
        cachedVariants: answered.filter((outcome) => outcome.cached).length,
        failedVariants: outcomes.length - answered.length,
        semantic: 'off',
        keptByWords: 0,
        semanticRejected: 0,
      };
      let kept = lexical.kept.slice(0, maxCheckedResults);
      if (options.llmFilter !== 'off' && searchOptions.semanticCheck !== false && kept.length > 0) {
        // Code decides the clear cases; the model only the rest, in one call (none when nothing is unclear).
        const wanted = queryWords(plan.simplified);
        const clear = new Set(options.llmFilter === 'on' ? kept.filter((item) => coversQuery(wanted, item)) : []);
        const unclear = kept.filter((item) => !clear.has(item));
        stats.keptByWords = clear.size;
        stats.semantic = 'not-needed';
        if (unclear.length > 0) {
          // The raw question keeps its time words ("วันนี้"), which the check needs to reject stale results.
          const verdict = await semanticCheck(plan.raw, dateLine(now, timeZone), unclear, services);
          const passed = new Set(verdict.ok ? unclear.filter((_, index) => verdict.keep[index] === true) : []);
          kept = kept.filter((item) => clear.has(item) || passed.has(item));
          stats.semantic = verdict.ok ? 'passed' : 'failed-closed';
          stats.semanticRejected = unclear.length - passed.size;
        }
      }
      const results = kept.slice(0, searchOptions.maxResults ?? defaultMaxResults);
      stats.kept = results.length;
      services.log.info({ provider: provider.name, ...stats }, 'web_search: results filtered');
      services.log.debug({ query: plan.raw, variants: plan.variants.map((variant) => variant.query) }, 'web_search: query variants');
      return results.length > 0 ? { status: 'found', query: plan.raw, results, stats } : { status: 'none', query: plan.raw, stats };
    },
  };
}
