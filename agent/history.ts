import type { Keyv } from 'keyv';
import { isSourceHeadingLine, stripSourceMarkers } from '../src/shared/source-markers.js';

/** One earlier exchange, re-sent byte-for-byte as stored. */
export interface HistoryPair {
  /** The user message content exactly as it was sent (date line, speaker and question). */
  question: string;
  /** The answer after deterministic compression. */
  answer: string;
  /** The message it answered (TurnInput.turnId), when known. */
  turnId?: string;
}

export interface HistoryLimits {
  maxPairs: number;
  maxChars: number;
  maxAnswerChars: number;
  /**
   * When a bound is exceeded, drop the oldest pairs down to these lower marks at once. Dropping one pair per turn
   * would change the start of the history on every turn and throw away the server's prompt cache each time;
   * dropping a few at once keeps the cached prefix valid for the next turns (measured in `npm run bench -- turn`).
   */
  trimToPairs: number;
  trimToChars: number;
}

export const defaultHistoryLimits: HistoryLimits = {
  maxPairs: 5,
  maxChars: 20_000,
  maxAnswerChars: 1_500,
  trimToPairs: 3,
  trimToChars: 12_000,
};

const toolMarkup = /<\/?(?:tool_call|tool_response|function[^<>\n]{0,200}|parameter[^<>\n]{0,200}|think)>/gi;

/**
 * Deterministic compression, no model call: drop the appended source list, inline source markers and tool
 * markup, squeeze blank lines, cap the length. The same answer always compresses to the same bytes.
 */
export function compressAnswer(answer: string, maxChars = defaultHistoryLimits.maxAnswerChars): string {
  const kept: string[] = [];
  for (const line of answer.split('\n')) {
    if (isSourceHeadingLine(line.trim())) break; // everything after the source heading is the code-appended list
    kept.push(line);
  }
  let text = stripSourceMarkers(kept.join('\n'))
    .replace(toolMarkup, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (text.length > maxChars) text = `${text.slice(0, maxChars - 1).trimEnd()}…`;
  return text;
}

const sizeOf = (pair: HistoryPair) => pair.question.length + pair.answer.length;

/**
 * Never more than `maxPairs` pairs or `maxChars` characters, whichever is reached first. Within both bounds the
 * history is left as it is; past either, the oldest pairs go until the lower marks hold.
 */
export function trimHistory(pairs: readonly HistoryPair[], limits: HistoryLimits = defaultHistoryLimits): HistoryPair[] {
  const total = pairs.reduce((sum, pair) => sum + sizeOf(pair), 0);
  if (pairs.length <= limits.maxPairs && total <= limits.maxChars) return [...pairs];
  const kept: HistoryPair[] = [];
  let characters = 0;
  for (let index = pairs.length - 1; index >= 0 && kept.length < limits.trimToPairs; index--) {
    const pair = pairs[index];
    if (!pair) continue;
    if (characters + sizeOf(pair) > limits.trimToChars) break;
    characters += sizeOf(pair);
    kept.unshift(pair);
  }
  return kept;
}

/** Per-conversation history in the keyv `history` namespace. */
export class ConversationHistory {
  constructor(
    private readonly store: Keyv,
    private readonly limits: HistoryLimits = defaultHistoryLimits,
  ) {}

  async load(conversationKey: string): Promise<HistoryPair[]> {
    const stored = await this.store.get<HistoryPair[]>(conversationKey);
    return Array.isArray(stored) ? stored : [];
  }

  /**
   * Appends one exchange (the answer is compressed here) and trims to the limits. An exchange of the same turn id
   * (written by a run that was cut off before its answer was stored) is replaced, not repeated.
   */
  async append(conversationKey: string, exchange: { question: string; answer: string; turnId?: string | undefined }): Promise<void> {
    const { turnId } = exchange;
    const pairs = (await this.load(conversationKey)).filter((pair) => turnId === undefined || pair.turnId !== turnId);
    const pair: HistoryPair = { question: exchange.question, answer: compressAnswer(exchange.answer, this.limits.maxAnswerChars) };
    if (turnId !== undefined) pair.turnId = turnId;
    pairs.push(pair);
    await this.store.set(conversationKey, trimHistory(pairs, this.limits));
  }

  async clear(conversationKey: string): Promise<void> {
    await this.store.delete(conversationKey);
  }
}
