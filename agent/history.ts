import type { Keyv } from 'keyv';

/** One earlier exchange, re-sent byte-for-byte as stored. */
export interface HistoryPair {
  /** The user message content exactly as it was sent (date line, speaker and question). */
  question: string;
  /** The answer after deterministic compression. */
  answer: string;
}

export interface HistoryLimits {
  maxPairs: number;
  maxChars: number;
  maxAnswerChars: number;
}

export const defaultHistoryLimits: HistoryLimits = { maxPairs: 5, maxChars: 20_000, maxAnswerChars: 1_500 };

const sourceHeading = /^(?:#{1,6}\s{0,3})?\**\s{0,3}(?:แหล่งที่มา|แหล่งอ้างอิง|ที่มา|Sources?|References?)\s{0,3}\**\s{0,3}:?\s{0,3}\**\s{0,3}$/i;
const sourceMarker = /\[source:[^\]\n]{0,500}\]/gi;
const toolMarkup = /<\/?(?:tool_call|tool_response|function[^>\n]{0,200}|parameter[^>\n]{0,200}|think)>/gi;

/**
 * Deterministic compression, no model call: drop the appended source list, inline source markers and tool
 * markup, squeeze blank lines, cap the length. The same answer always compresses to the same bytes.
 */
export function compressAnswer(answer: string, maxChars = defaultHistoryLimits.maxAnswerChars): string {
  const kept: string[] = [];
  for (const line of answer.split('\n')) {
    if (sourceHeading.test(line.trim())) break; // everything after the source heading is the code-appended list
    kept.push(line);
  }
  let text = kept
    .join('\n')
    .replace(sourceMarker, '')
    .replace(toolMarkup, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (text.length > maxChars) text = `${text.slice(0, maxChars - 1).trimEnd()}…`;
  return text;
}

/** Keeps the newest pairs within both bounds: at most `maxPairs` and `maxChars`, whichever is reached first. */
export function trimHistory(pairs: readonly HistoryPair[], limits: HistoryLimits = defaultHistoryLimits): HistoryPair[] {
  const kept: HistoryPair[] = [];
  let characters = 0;
  for (let index = pairs.length - 1; index >= 0 && kept.length < limits.maxPairs; index--) {
    const pair = pairs[index];
    if (!pair) continue;
    const size = pair.question.length + pair.answer.length;
    if (characters + size > limits.maxChars) break;
    characters += size;
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

  /** Appends one exchange (the answer is compressed here) and trims to the limits. */
  async append(conversationKey: string, question: string, answer: string): Promise<void> {
    const pairs = await this.load(conversationKey);
    pairs.push({ question, answer: compressAnswer(answer, this.limits.maxAnswerChars) });
    await this.store.set(conversationKey, trimHistory(pairs, this.limits));
  }

  async clear(conversationKey: string): Promise<void> {
    await this.store.delete(conversationKey);
  }
}
