import type { Keyv } from 'keyv';
import { isSourceHeadingLine, stripSourceMarkers } from '../src/shared/source-markers.js';
import type { Citation } from '../src/shared/types.js';

/** Naive-RAG passages as they followed the question in the user message, and their citations. */
export interface SentPassages {
  text: string;
  citations: Citation[];
}

/** One earlier exchange, re-sent byte-for-byte as stored. */
export interface HistoryPair {
  /** The stored part of the user message as it was sent (date line, speaker and question). */
  question: string;
  /**
   * The naive-RAG passages sent right after the question, kept for the last few turns: re-sent as they were, the
   * earlier request stays a byte prefix of the next one (see `trimPassages`).
   */
  passages?: SentPassages;
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
  /**
   * Pairs that keep their passages, and their characters (counted apart from `maxChars`). Past either bound the
   * oldest pairs lose theirs down to the lower marks at once, for the same reason as `trimToPairs`. 0: no pair keeps
   * passages (the policy before, and the model-work bench's baseline).
   */
  maxPassagePairs: number;
  maxPassageChars: number;
  trimPassagesToPairs: number;
  trimPassagesToChars: number;
}

export const defaultHistoryLimits: HistoryLimits = {
  maxPairs: 5,
  maxChars: 20_000,
  maxAnswerChars: 1_500,
  trimToPairs: 3,
  trimToChars: 12_000,
  maxPassagePairs: 3,
  maxPassageChars: 12_000,
  trimPassagesToPairs: 1,
  trimPassagesToChars: 6_500,
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

/** Without passages: what history keeps of a pair once its passages are trimmed (and what is sent outside naive RAG). */
export function withoutPassages(pair: HistoryPair): HistoryPair {
  const { passages: _dropped, ...rest } = pair;
  return rest;
}

/**
 * Passages are kept on at most `maxPassagePairs` pairs and `maxPassageChars` characters; past either, the oldest
 * lose theirs until the lower marks hold. Dropping them one turn at a time would rewrite the prompt near its start
 * on every turn; the user message of a trimmed pair keeps its question, so the answer after it still makes sense.
 */
export function trimPassages(pairs: readonly HistoryPair[], limits: HistoryLimits = defaultHistoryLimits): HistoryPair[] {
  const carrying = pairs.flatMap((pair, index) => (pair.passages ? [{ index, chars: pair.passages.text.length }] : []));
  let chars = carrying.reduce((sum, entry) => sum + entry.chars, 0);
  if (carrying.length <= limits.maxPassagePairs && chars <= limits.maxPassageChars) return [...pairs];
  const keepPairs = Math.min(limits.trimPassagesToPairs, limits.maxPassagePairs);
  const strip = new Set<number>();
  for (const [position, entry] of carrying.entries()) {
    if (carrying.length - position <= keepPairs && chars <= limits.trimPassagesToChars) break;
    strip.add(entry.index);
    chars -= entry.chars;
  }
  return pairs.map((pair, index) => (strip.has(index) ? withoutPassages(pair) : pair));
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
  async append(
    conversationKey: string,
    exchange: { question: string; passages?: SentPassages | undefined; answer: string; turnId?: string | undefined },
  ): Promise<void> {
    const { turnId } = exchange;
    const pairs = (await this.load(conversationKey)).filter((pair) => turnId === undefined || pair.turnId !== turnId);
    const pair: HistoryPair = { question: exchange.question, answer: compressAnswer(exchange.answer, this.limits.maxAnswerChars) };
    if (exchange.passages) pair.passages = exchange.passages;
    if (turnId !== undefined) pair.turnId = turnId;
    pairs.push(pair);
    await this.store.set(conversationKey, trimPassages(trimHistory(pairs, this.limits), this.limits));
  }

  async clear(conversationKey: string): Promise<void> {
    await this.store.delete(conversationKey);
  }
}
