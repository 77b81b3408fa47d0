import type { Localized } from '../../../src/shared/i18n.js';
import { say } from '../../../src/shared/i18n.js';
import { markUnsupportedNumbers } from '../../guards/unsupported-numbers.js';
import { searchFailedText } from '../web-search/notices.js';
import type { SearchPipeline } from '../web-search/search-pipeline.js';
import type { Candidate } from '../web-search/types.js';
import { dateLine } from '../web-search/years.js';
import { findConflicts } from './conflicts.js';
import { extractFacts } from './fact-extraction.js';
import { FactStore } from './fact-store.js';
import { findGaps } from './gap-finding.js';
import { freshQueries, maxRounds, stopAfterRound } from './stop-rules.js';
import { synthesize } from './synthesis.js';
import type { ResearchContext, ResearchResult, ResearchRunner, ResearchStopReason } from './types.js';

// Deep research: search → extract facts (each with its source URL) → find gaps → ≤ 3 follow-up queries,
// until a stop rule fires; then one cited synthesis.

const roundProgress: Localized = {
  th: '🔎 ค้นคว้ารอบที่ {round}/{max}: {queries} (ได้ข้อมูลแล้ว {facts} ข้อ)',
  en: '🔎 Research round {round}/{max}: {queries} ({facts} facts so far)',
};

/** Results per query, and new results read per round (prompt size for a small model). */
const resultsPerQuery = 5;
const maxResultsPerRound = 12;

interface RoundSearch {
  results: Candidate[];
  failure?: string;
}

async function searchRound(pipeline: SearchPipeline, queries: readonly string[], seen: Set<string>, context: ResearchContext): Promise<RoundSearch> {
  const outcomes = await Promise.all(queries.map((query) => pipeline.search(query, context, { semanticCheck: false, maxResults: resultsPerQuery })));
  const fresh: Candidate[] = [];
  for (const outcome of outcomes) {
    if (outcome.status !== 'found') continue;
    for (const result of outcome.results) {
      if (seen.has(result.key) || fresh.length >= maxResultsPerRound) continue;
      seen.add(result.key);
      fresh.push(result);
    }
  }
  const failures = outcomes.flatMap((outcome) => (outcome.status === 'failed' ? [outcome.kind] : []));
  const allFailed = failures.length === outcomes.length;
  return allFailed ? { results: fresh, failure: failures[0] ?? 'unexpected' } : { results: fresh };
}

export function createResearchRunner(pipeline: SearchPipeline): ResearchRunner {
  return async (question: string, context: ResearchContext): Promise<ResearchResult> => {
    const date = dateLine(context.now(), pipeline.timeZone);
    const store = new FactStore();
    const seen = new Set<string>();
    const askedQueries: string[] = [];
    // Everything the research read (titles and snippets): the only support for the figures of its write-up.
    const readTexts: string[] = [];
    let queries = [question];
    let round = 0;
    // Every exit of the loop below says why it stopped (the round limit is one of the stop rules).
    let stopReason: ResearchStopReason;
    for (;;) {
      if (context.signal.aborted) {
        stopReason = 'aborted';
        break;
      }
      round += 1;
      askedQueries.push(...queries);
      context.progress({
        source: 'deep_research',
        text: say(roundProgress, context.language, {
          round,
          max: maxRounds,
          queries: queries.map((query) => `"${query}"`).join(', '),
          facts: store.size,
        }),
      });
      const found = await searchRound(pipeline, queries, seen, context);
      if (found.failure !== undefined) {
        stopReason = found.failure === 'aborted' ? 'aborted' : 'search-failed';
        if (round === 1) {
          return { text: searchFailedText(found.failure, context.language), citations: [], rounds: round, facts: 0, stopReason };
        }
        break;
      }
      readTexts.push(...found.results.map((result) => `${result.title}\n${result.snippet}`));
      const extracted = await extractFacts(question, date, found.results, context);
      const newFacts = store.add(extracted.facts, round);
      context.log.info({ round, queries: queries.length, newResults: found.results.length, newFacts, totalFacts: store.size }, 'deep_research: round done');
      const stop = stopAfterRound({ round, newResults: found.results.length, newFacts, totalFacts: store.size });
      if (stop) {
        stopReason = stop;
        break;
      }
      const gaps = await findGaps(question, date, store.facts, askedQueries, context);
      if (gaps.gaps.length === 0 || gaps.queries.length === 0) {
        stopReason = 'no-gaps';
        break;
      }
      queries = freshQueries(gaps.queries, askedQueries);
      if (queries.length === 0) {
        stopReason = 'repeated-query';
        break;
      }
    }
    const facts = store.facts;
    const synthesis = await synthesize(question, date, facts, findConflicts(facts), context.language, context);
    // Two model steps stand between a snippet and the write-up (fact extraction, synthesis): a figure that no
    // snippet, the question or the date carries is marked unconfirmed here, for /research and the tool alike.
    const checked = markUnsupportedNumbers(synthesis.text, [...readTexts, question, date], context.language);
    context.log.info(
      { rounds: round, facts: facts.length, stopReason, citations: synthesis.citations.length, unsupportedFigures: checked.unsupported },
      'deep_research: finished',
    );
    return { ...synthesis, text: checked.text, rounds: round, facts: facts.length, stopReason };
  };
}
