import { z } from 'zod';
import { logFailure, type Logger } from '../../../src/shared/log.js';
import type { TextCompleter } from '../../model/index.js';
import { oneLine } from '../web-search/thai-text.js';
import { parseModelJson } from './tolerant-json.js';
import type { Fact } from './types.js';

// Knowledge-gap finding: what the facts so far do not answer, and at most three follow-up queries.

export const maxFollowUpQueries = 3;

const gapsAnswer = z.object({
  gaps: z.array(z.string()).max(5),
  queries: z.array(z.string()).max(maxFollowUpQueries),
});
const gapsJsonSchema = z.toJSONSchema(gapsAnswer) as Record<string, unknown>;
const looseGaps = z.object({
  gaps: z.array(z.unknown()).optional(),
  queries: z.array(z.unknown()).optional(),
  follow_up_queries: z.array(z.unknown()).optional(),
});

export interface Gaps {
  gaps: string[];
  queries: string[];
}

const system = [
  'You plan web research. Given a question and the facts found so far, list what is still missing to answer it',
  'fully ("gaps") and up to three short web search queries that would fill those gaps. Queries must differ from the',
  'earlier ones. If the facts already answer the question, return empty lists.',
  'Answer with JSON only: {"gaps":["…"],"queries":["…"]}',
].join(' ');

function strings(values: readonly unknown[] | undefined, maxLength: number): string[] {
  return (values ?? [])
    .filter((value): value is string => typeof value === 'string')
    .map((value) => oneLine(value, maxLength))
    .filter((value) => value !== '');
}

/** Tolerant parse; an unusable answer counts as "no gaps" (the loop then stops and writes up). */
export function parseGaps(answer: string): Gaps {
  const shaped = looseGaps.safeParse(parseModelJson(answer));
  if (!shaped.success) return { gaps: [], queries: [] };
  return {
    gaps: strings(shaped.data.gaps, 200),
    queries: strings(shaped.data.queries ?? shaped.data.follow_up_queries, 200).slice(0, maxFollowUpQueries),
  };
}

export function buildGapPrompt(question: string, date: string, facts: readonly Fact[], earlierQueries: readonly string[]): string {
  const listed = facts.map((fact) => `- ${fact.text}`).join('\n') || '(none)';
  return `Today: ${date}\nQuestion: ${question}\n\nFacts so far:\n${listed}\n\nEarlier queries:\n${earlierQueries.map((query) => `- ${query}`).join('\n')}`;
}

export async function findGaps(
  question: string,
  date: string,
  facts: readonly Fact[],
  earlierQueries: readonly string[],
  services: { complete: TextCompleter; signal: AbortSignal; log: Logger },
): Promise<Gaps> {
  try {
    const answer = await services.complete({
      system,
      messages: [{ role: 'user', content: buildGapPrompt(question, date, facts, earlierQueries) }],
      maxTokens: 400,
      jsonSchema: { name: 'gaps', schema: gapsJsonSchema },
      signal: services.signal,
    });
    return parseGaps(answer);
  } catch (error) {
    logFailure(services.log, 'warn', {}, 'deep_research: gap finding call failed', error);
    return { gaps: [], queries: [] };
  }
}
