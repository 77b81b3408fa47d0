// Vocabulary of the web-search pipeline: provider requests and outcomes, candidates, kept results.

export type ProviderName = 'searxng' | 'brave' | 'tavily';
export type TimeRange = 'day' | 'week' | 'month' | 'year';

export interface SearchRequest {
  query: string;
  timeRange?: TimeRange;
  /** Send the provider's Thai language hint. */
  thai: boolean;
  /** Site restriction for providers that ignore `site:` (Tavily). */
  includeDomains?: readonly string[];
}

/** One result as a provider returned it, already decoded to plain text. */
export interface RawResult {
  title: string;
  url: string;
  snippet: string;
  /** The provider's evidence date (ISO or relative text such as "3 days ago"), when it has one. */
  publishedAt?: string;
}

/** `credential`: not sent at all, the query carries a credential (query-guard.ts). */
export type ProviderFailureKind =
  'timeout' | 'rate-limited' | 'http-error' | 'invalid-response' | 'unreachable' | 'engines-unresponsive' | 'aborted' | 'credential';

export type ProviderOutcome = { ok: true; results: RawResult[]; cached: boolean } | { ok: false; kind: ProviderFailureKind; detail: string };

export interface SearchProvider {
  readonly name: ProviderName;
  /** Site restriction style: `site:` in the query, or a request field. */
  readonly siteRestriction: 'query' | 'include-domains';
  search(request: SearchRequest, signal: AbortSignal): Promise<ProviderOutcome>;
}

/** A merged, deduplicated result (layer 1). */
export interface Candidate extends RawResult {
  /** Normalized URL used for dedupe and fact-to-source matching. */
  key: string;
  /** Host without `www.`, for per-domain capping. */
  host: string;
  /** How many query variants returned it. */
  variantHits: number;
  /** Position in the merged, interleaved list (lower is better). */
  rank: number;
}

export type RejectReason = 'year' | 'version' | 'deadline' | 'price' | 'forecast' | 'low-overlap';

export interface ScoredCandidate extends Candidate {
  /** Character-trigram containment of the query in title + snippet, 0..1 (0 after a hard reject). */
  score: number;
}
