import { logFailure } from '../../../src/shared/log.js';
import { z } from 'zod';
import { say } from '../../../src/shared/i18n.js';
import { type AnyTool, defineTool } from '../tool.js';
import { citationsOf, formatResultsBlock } from './format-results.js';
import { nothingRelevantNotice, searchFailedText } from './notices.js';
import { maxQueryLength } from './query-variants.js';
import type { SearchPipeline } from './search-pipeline.js';

// The `web_search` tool: titles and snippets only (result pages are never fetched), each line tagged
// with its source by code.

const input = z.object({
  query: z.string().trim().min(1).max(maxQueryLength).describe('What to search for, in the language of the question'),
});

export function createWebSearchTool(pipeline: SearchPipeline): AnyTool {
  return defineTool({
    name: 'web_search',
    description:
      'Search the web for current or factual information (news, prices, dates, versions, events). ' +
      'Returns titles and snippets; the sources are added to your answer automatically.',
    input,
    async execute({ query }, context) {
      let outcome;
      try {
        outcome = await pipeline.search(query, context);
      } catch (error) {
        logFailure(context.log, 'error', {}, 'web_search: unexpected failure', error);
        return { ok: false, content: searchFailedText('unexpected', context.language) };
      }
      if (outcome.status === 'failed') return { ok: false, content: searchFailedText(outcome.kind, context.language) };
      if (outcome.status === 'none') {
        return { ok: true, content: say(nothingRelevantNotice, context.language, { query: outcome.query }), citations: [] };
      }
      return {
        ok: true,
        content: formatResultsBlock(outcome.results, context.turnState, context.language),
        citations: citationsOf(outcome.results),
      };
    },
  });
}
