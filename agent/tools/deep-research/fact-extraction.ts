import { z } from 'zod';
import { logFailure, type Logger } from '../../../src/shared/log.js';
import type { TextCompleter } from '../../model/index.js';
import { oneLine } from '../web-search/thai-text.js';
import type { Candidate } from '../web-search/types.js';
import { urlKey } from '../../../src/shared/url-normalize.js';
import { parseModelJson } from './tolerant-json.js';

// Fact extraction: the model lists facts from this round's results, each with the URL of the result it
// came from. Facts whose URL is not among those results are dropped, whatever the model claims.

export const maxFactsPerRound = 20;
const maxFactLength = 300;
const minFactLength = 8;

const factsAnswer = z.object({
  facts: z
    .array(z.object({ fact: z.string().describe('One short statement taken from a result'), url: z.string().describe('The URL of that result') }))
    .max(maxFactsPerRound),
});
const factsJsonSchema = z.toJSONSchema(factsAnswer) as Record<string, unknown>;

const looseFact = z.object({
  fact: z.string().optional(),
  text: z.string().optional(),
  claim: z.string().optional(),
  statement: z.string().optional(),
  url: z.string().optional(),
  source: z.string().optional(),
  source_url: z.string().optional(),
  link: z.string().optional(),
});
const looseFacts = z.union([z.object({ facts: z.array(z.unknown()) }), z.array(z.unknown())]);

export interface ExtractedFact {
  text: string;
  url: string;
  title: string;
}

export interface ParsedFacts {
  facts: ExtractedFact[];
  /** Facts without a usable statement or whose URL was not among the results. */
  dropped: number;
  parsed: boolean;
}

const system = [
  'You extract facts from web search results to answer a question.',
  'Use only what the titles and snippets say. Each fact is one short, self-contained statement (keep numbers, units',
  'and dates exactly as written) with the exact URL of the result it came from.',
  'Skip results that do not help. Answer with JSON only: {"facts":[{"fact":"…","url":"…"}]}',
].join(' ');

export function buildFactPrompt(question: string, date: string, results: readonly Candidate[]): string {
  const listed = results.map((result) => `URL: ${result.url}\n${result.title} — ${result.snippet}`).join('\n\n');
  return `Today: ${date}\nQuestion: ${question}\n\nResults:\n${listed}`;
}

/** Tolerant parse of the model's answer; only facts citing one of `results` survive. */
export function parseFacts(answer: string, results: readonly Candidate[]): ParsedFacts {
  const byKey = new Map(results.map((result) => [result.key, result]));
  const shaped = looseFacts.safeParse(parseModelJson(answer));
  if (!shaped.success) return { facts: [], dropped: 0, parsed: false };
  const items = Array.isArray(shaped.data) ? shaped.data : shaped.data.facts;
  const facts: ExtractedFact[] = [];
  let dropped = 0;
  for (const item of items.slice(0, maxFactsPerRound * 2)) {
    const entry = looseFact.safeParse(item);
    const text = entry.success ? oneLine(entry.data.fact ?? entry.data.text ?? entry.data.claim ?? entry.data.statement ?? '', maxFactLength) : '';
    const url = entry.success ? (entry.data.url ?? entry.data.source_url ?? entry.data.source ?? entry.data.link ?? '') : '';
    const key = urlKey(url);
    const source = key ? byKey.get(key) : undefined;
    if (!source || text.length < minFactLength || facts.length >= maxFactsPerRound) {
      dropped += 1;
      continue;
    }
    facts.push({ text, url: source.url, title: source.title });
  }
  return { facts, dropped, parsed: true };
}

export async function extractFacts(
  question: string,
  date: string,
  results: readonly Candidate[],
  services: { complete: TextCompleter; signal: AbortSignal; log: Logger },
): Promise<ParsedFacts> {
  if (results.length === 0) return { facts: [], dropped: 0, parsed: true };
  let answer: string;
  try {
    answer = await services.complete({
      system,
      messages: [{ role: 'user', content: buildFactPrompt(question, date, results) }],
      maxTokens: 1200,
      jsonSchema: { name: 'facts', schema: factsJsonSchema },
      signal: services.signal,
    });
  } catch (error) {
    logFailure(services.log, 'warn', {}, 'deep_research: fact extraction call failed', error);
    return { facts: [], dropped: 0, parsed: false };
  }
  const parsed = parseFacts(answer, results);
  if (!parsed.parsed) services.log.warn({ answerLength: answer.length }, 'deep_research: fact extraction answer did not parse');
  if (parsed.dropped > 0) services.log.info({ dropped: parsed.dropped }, 'deep_research: facts dropped (unknown source URL or empty)');
  return parsed;
}
