import { logFailure } from '../../../src/shared/log.js';
import { z } from 'zod';
import { type AnyTool, defineTool } from '../tool.js';
import { sourceMarker } from '../../../src/shared/source-markers.js';
import { blockHeading, neutralize } from '../web-search/format-results.js';
import { searchFailedText } from '../web-search/notices.js';
import type { ResearchRunner } from './types.js';

// The `deep_research` tool: several search rounds for questions one search cannot answer.

const input = z.object({
  question: z.string().trim().min(1).max(500).describe('The full research question, in the language of the user'),
});

export function createDeepResearchTool(runner: ResearchRunner): AnyTool {
  return defineTool({
    name: 'deep_research',
    description:
      'Research a complex question with several rounds of web search, fact extraction and a cited summary. ' +
      'Slow: use it only when one web_search is clearly not enough (comparisons, multi-part or in-depth questions).',
    input,
    async execute({ question }, context) {
      try {
        const result = await runner(question, context);
        const failed = result.stopReason === 'search-failed' || result.stopReason === 'aborted';
        if (failed && result.citations.length === 0) return { ok: false, content: result.text };
        const sources = result.citations.map((citation, index) => `[${index + 1}] ${neutralize(citation.label)} ${sourceMarker(citation.url ?? '')}`);
        const content = [blockHeading(context.turnState, context.language), result.text, '', ...sources].join('\n');
        return { ok: true, content, citations: result.citations };
      } catch (error) {
        logFailure(context.log, 'error', {}, 'deep_research: unexpected failure', error);
        return { ok: false, content: searchFailedText('unexpected', context.language) };
      }
    },
  });
}
