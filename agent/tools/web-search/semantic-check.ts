import { logFailure, type Logger } from '../../../src/shared/log.js';
import { stripThinking, type TextCompleter } from '../../model/index.js';

// Layer 3: one batched YES/NO call to the same model over the remaining titles + snippets (no URLs).
// The answer is parsed with a strict pattern; anything unexpected rejects every item (fails closed).

export interface CheckItem {
  title: string;
  snippet: string;
}

export type SemanticVerdict = { ok: true; keep: boolean[] } | { ok: false; reason: string };

const system = [
  'You judge web search results for a question.',
  'For each numbered result answer YES if its title and snippet help answer the question and are not about a',
  'different year, version or topic; otherwise answer NO.',
  'Reply with exactly one line per result, in order, in the form "<number>: YES" or "<number>: NO". No other text.',
].join(' ');

const verdictLine = /^(\d{1,3})\s{0,2}[:.)]\s{0,2}(YES|NO)$/i;
const maxAnswerLength = 4000;

/** One verdict per item, or null when the text is not exactly the expected list. */
export function parseVerdicts(text: string, count: number): boolean[] | null {
  if (text.length > maxAnswerLength) return null;
  const lines = stripThinking(text)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length !== count) return null;
  const verdicts = new Array<boolean | undefined>(count).fill(undefined);
  for (const line of lines) {
    const match = verdictLine.exec(line);
    if (!match) return null;
    const index = Number(match[1]) - 1;
    if (index < 0 || index >= count || verdicts[index] !== undefined) return null;
    verdicts[index] = (match[2] ?? '').toUpperCase() === 'YES';
  }
  return verdicts.every((verdict) => verdict !== undefined) ? (verdicts as boolean[]) : null;
}

export function buildCheckPrompt(question: string, date: string, items: readonly CheckItem[]): string {
  const listed = items.map((item, index) => `${index + 1}. ${item.title} — ${item.snippet}`).join('\n');
  return `Today: ${date}\nQuestion: ${question}\n\nResults:\n${listed}`;
}

export async function semanticCheck(
  question: string,
  date: string,
  items: readonly CheckItem[],
  services: { complete: TextCompleter; signal: AbortSignal; log: Logger },
): Promise<SemanticVerdict> {
  if (items.length === 0) return { ok: true, keep: [] };
  let answer: string;
  try {
    answer = await services.complete({
      system,
      messages: [{ role: 'user', content: buildCheckPrompt(question, date, items) }],
      maxTokens: 8 * items.length + 16,
      signal: services.signal,
    });
  } catch (error) {
    logFailure(services.log, 'warn', {}, 'web_search: relevance check call failed; rejecting all results', error);
    return { ok: false, reason: 'call-failed' };
  }
  const keep = parseVerdicts(answer, items.length);
  if (!keep) {
    services.log.warn({ answerLength: answer.length }, 'web_search: relevance check answer did not parse; rejecting all results');
    return { ok: false, reason: 'unparsable' };
  }
  return { ok: true, keep };
}
