import { readFileSync } from 'node:fs';
import { applyLexicalLayers } from '../agent/tools/web-search/lexical-layers.js';
import { analyzeIntent } from '../agent/tools/web-search/query-intent.js';
import { planQuery } from '../agent/tools/web-search/query-variants.js';
import type { SearchProvider } from '../agent/tools/web-search/types.js';
import { coversQuery, queryWords } from '../agent/tools/web-search/word-coverage.js';
import type { RequestBody } from '../test/fakes/model-server.js';
import { messagesOf } from '../test/fakes/recorded-messages.js';

// The web-search relevance check in `bench -- model-work`: the labelled set (Thai questions, made-up results marked
// relevant or not), what code and the model's check each get to decide on it, and a judge that answers the check as
// the labels say (the best a model could do: the bench counts its tokens, not its accuracy).

export interface LabelledResult {
  title: string;
  url: string;
  snippet: string;
  relevant: boolean;
}

export const labelled = (
  JSON.parse(readFileSync(new URL('../test/fixtures/search/relevance-labelled.json', import.meta.url), 'utf8')) as {
    queries: { query: string; results: LabelledResult[] }[];
  }
).queries;

const relevantByTitle = new Map(labelled.flatMap((entry) => entry.results.map((result) => [result.title, result.relevant] as const)));

/** The check's request (not streamed): "n. title — snippet" lines; answered YES unless the labels say otherwise. */
export const isRelevanceCheck = (body: RequestBody) => body.stream !== true;

export function judgeByLabels(body: RequestBody): string {
  const content = messagesOf(body).at(-1)?.content;
  const lines = (typeof content === 'string' ? content : '').split('\n').flatMap((line) => {
    const match = /^(\d{1,3})\. (.*) — /.exec(line);
    return match ? [`${match[1]}: ${relevantByTitle.get(match[2] ?? '') === false ? 'NO' : 'YES'}`] : [];
  });
  return lines.join('\n');
}

export interface CheckFigures {
  calls: number;
  /** Results the model was asked about. */
  items: number;
  /** Prompt tokens the one slot had to process for the calls. */
  processedTokens: number;
  /** Tokens of the verdict lines the judge wrote (a model writes at least these). */
  generatedTokens: number;
}

const checkInstruction = 'You judge web search results';

/** Adds one request to the figures when it is a relevance check. */
export function checkFigures(figures: CheckFigures, body: RequestBody, processed: number, encode: (text: string) => number[]): void {
  const content = messagesOf(body).at(-1)?.content;
  if (!isRelevanceCheck(body) || typeof content !== 'string' || !content.includes(checkInstruction)) return;
  const verdicts = judgeByLabels(body);
  figures.calls += 1;
  figures.items += verdicts.split('\n').length;
  figures.processedTokens += processed;
  figures.generatedTokens += encode(verdicts).length;
}

const offline: SearchProvider = { name: 'searxng', siteRestriction: 'query', search: () => Promise.reject(new Error('offline')) };

/** Over the labelled set: what layers 1–2 drop, what code keeps by words, and what is left for the model. */
export function relevanceSplit(year: number) {
  const counts = { queries: labelled.length, results: 0, irrelevant: 0, droppedByLayers: 0, irrelevantDroppedByLayers: 0 };
  const check = { itemsAlways: 0, callsAlways: 0, keptByWords: 0, irrelevantKeptByWords: 0, itemsOn: 0, callsOn: 0, irrelevantLeftToModel: 0 };
  for (const { query, results } of labelled) {
    const plan = planQuery(query, offline);
    const raw = results.map(({ title, url, snippet }) => ({ title, url, snippet }));
    const kept = applyLexicalLayers(plan, analyzeIntent(plan, year), [raw]).kept;
    const wanted = queryWords(plan.simplified);
    counts.results += results.length;
    counts.irrelevant += results.filter((result) => !result.relevant).length;
    for (const result of results) {
      const survived = kept.some((item) => item.url === result.url);
      if (!survived) {
        counts.droppedByLayers += 1;
        if (!result.relevant) counts.irrelevantDroppedByLayers += 1;
        continue;
      }
      const clear = coversQuery(wanted, result);
      if (clear) check.keptByWords += 1;
      if (clear && !result.relevant) check.irrelevantKeptByWords += 1;
      if (!clear && !result.relevant) check.irrelevantLeftToModel += 1;
    }
    const unclear = kept.filter((item) => !coversQuery(wanted, item)).length;
    check.itemsAlways += kept.length;
    check.callsAlways += kept.length > 0 ? 1 : 0;
    check.itemsOn += unclear;
    check.callsOn += unclear > 0 ? 1 : 0;
  }
  return { ...counts, check };
}
