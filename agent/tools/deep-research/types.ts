import type { Citation } from '../../../src/shared/types.js';
import type { ToolContext } from '../tool.js';

export interface Fact {
  text: string;
  /** A URL that was among the search results shown to the model (clean form). */
  url: string;
  /** The title of that result, for the source list. */
  title: string;
  round: number;
}

export type ResearchStopReason = 'no-gaps' | 'round-limit' | 'fact-limit' | 'few-new-facts' | 'empty-round' | 'repeated-query' | 'search-failed' | 'aborted';

export interface ResearchResult {
  /** The cited synthesis: `[n]` markers that match `citations[n - 1]`. */
  text: string;
  citations: Citation[];
  rounds: number;
  facts: number;
  stopReason: ResearchStopReason;
}

export type ResearchContext = Pick<ToolContext, 'complete' | 'language' | 'signal' | 'progress' | 'now' | 'log'>;

export type ResearchRunner = (question: string, context: ResearchContext) => Promise<ResearchResult>;
