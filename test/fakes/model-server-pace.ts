import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import type { RequestBody } from './model-server.js';

// A fake llama-server that takes a CPU box's time (FakeModelServerOptions.pace): before the first byte of a text or
// tool-call answer it "reads" the prompt (the tokens after the common prefix with the previous request, as one
// llama-server slot with cache_prompt does), then writes the answer one token per SSE chunk at the generation rate.
// Only `text` and `toolCalls` steps are paced; errors, hangs and the other steps answer as before.
// The slot keeps the previous prompt only (not the tokens generated after it), so its reuse is a floor; requests
// are not queued behind each other as one slot would (the benches that pace send one at a time).

/** How prompts and answers are cut into tokens; the default is cheap, a bench may hand in Qwen3's tokenizer. */
export interface PaceTokenizer {
  /** The request's prompt as tokens (any comparable units): its length is the prompt, a shared prefix is cached. */
  prompt(body: RequestBody): readonly (number | string)[];
  /** The answer in pieces that join back to it, each with the tokens it took (one, or a few for a split character). */
  answer(text: string): { text: string; tokens: number }[];
}

export interface PaceOptions {
  promptTokensPerSecond: number;
  generationTokensPerSecond: number;
  /** Everything this many times faster (quick runs): the waits are divided by it, the logged times are not. */
  timeScale?: number;
  tokenizer?: PaceTokenizer;
}

/** One paced chat request; times are performance.now() of this process. */
export interface PacedCall {
  requestAt: number;
  promptTokens: number;
  /** Tokens after the common prefix with the previous request: what the slot had to read. */
  processedTokens: number;
  generatedTokens: number;
  /** Headers and first chunk written (llama-server answers a stream once the prompt is read). */
  firstByteAt?: number;
  /** The first chunk with answer text (`content`), when the answer has any. */
  firstContentAt?: number;
  endAt?: number;
}

/**
 * Cheap token units, close to Qwen3's own counts without loading it: code points grouped to about four UTF-8 bytes
 * (Qwen3 takes ~4.6 bytes of Thai, ~3.7 of English per token).
 */
export function approximateTokens(text: string): string[] {
  const units: string[] = [];
  let unit = '';
  let bytes = 0;
  for (const character of text) {
    unit += character;
    bytes += Buffer.byteLength(character);
    if (bytes >= 4) {
      units.push(unit);
      unit = '';
      bytes = 0;
    }
  }
  if (unit !== '') units.push(unit);
  return units;
}

export const approximateTokenizer: PaceTokenizer = {
  prompt: (body) => approximateTokens(JSON.stringify([body.messages ?? [], body.tools ?? []])),
  answer: (text) => approximateTokens(text).map((piece) => ({ text: piece, tokens: 1 })),
};

function sharedPrefix(left: readonly unknown[], right: readonly unknown[]): number {
  const limit = Math.min(left.length, right.length);
  let index = 0;
  while (index < limit && left[index] === right[index]) index++;
  return index;
}

/** What the model wrote in a delta (a tool call's name and argument text, not the wire's ids and keys). */
function generatedText(value: unknown, key = ''): string {
  if (typeof value === 'string') return ['id', 'type', 'role'].includes(key) ? '' : value;
  if (Array.isArray(value)) return value.map((item) => generatedText(item)).join('');
  if (typeof value === 'object' && value !== null)
    return Object.entries(value)
      .map(([name, item]) => generatedText(item, name))
      .join('');
  return '';
}

/** One paced answer: what model-server.ts awaits before its first byte and before each delta. */
export interface PacedAnswer {
  readPrompt(): Promise<void>;
  /** Waits until the delta's tokens were generated; `undefined` (the role announcement) costs none. */
  generate(delta: Record<string, unknown> | undefined): Promise<void>;
  /** A delta was written: the first with content is the answer's first token. */
  wrote(delta: Record<string, unknown>): void;
  ended(): void;
}

/** The pacing of one server: its slot's previous prompt, and the log of every paced call. */
export class Pacer {
  readonly log: PacedCall[] = [];
  private previous: readonly (number | string)[] = [];
  private readonly tokenizer: PaceTokenizer;
  private readonly scale: number;
  /** Token counts of the deltas this pacer cut; any other delta counts as the tokens of its JSON. */
  private readonly counts = new WeakMap<object, number>();

  constructor(private readonly options: PaceOptions) {
    this.tokenizer = options.tokenizer ?? approximateTokenizer;
    this.scale = options.timeScale ?? 1;
  }

  /** A request arrived (its body read): counts its prompt against the slot. */
  begin(body: RequestBody): PacedAnswer {
    const requestAt = performance.now();
    const tokens = this.tokenizer.prompt(body);
    // A prompt the slot holds whole still has its last token read again (llama-server needs its logits).
    const processedTokens = Math.max(Math.min(1, tokens.length), tokens.length - sharedPrefix(this.previous, tokens));
    const call: PacedCall = {
      requestAt,
      promptTokens: tokens.length,
      processedTokens,
      generatedTokens: 0,
    };
    this.previous = tokens;
    this.log.push(call);
    const { promptTokensPerSecond, generationTokensPerSecond } = this.options;
    return {
      readPrompt: async () => {
        await this.until(call.requestAt, (call.processedTokens / promptTokensPerSecond) * 1000);
        call.firstByteAt = performance.now();
      },
      // On a schedule from the first byte, so the waits do not drift.
      generate: async (delta) => {
        if (!delta) return;
        call.generatedTokens += this.tokensOf(delta);
        await this.until(call.firstByteAt ?? call.requestAt, (call.generatedTokens / generationTokensPerSecond) * 1000);
      },
      wrote: (delta) => {
        if (call.firstContentAt === undefined && typeof delta.content === 'string' && delta.content !== '') call.firstContentAt = performance.now();
      },
      ended: () => {
        call.endAt = performance.now();
      },
    };
  }

  /** Text deltas one token each (reasoning first, as the real server streams it). */
  textDeltas(text: string, reasoning: string, reasoningField: string): Record<string, unknown>[] {
    const cut = (value: string, field: string) =>
      this.tokenizer.answer(value).map((piece) => {
        const delta = { [field]: piece.text };
        this.counts.set(delta, piece.tokens);
        return delta;
      });
    return [...cut(reasoning, reasoningField), ...cut(text, 'content')];
  }

  private tokensOf(delta: Record<string, unknown>): number {
    return this.counts.get(delta) ?? this.tokenizer.answer(generatedText(delta)).reduce((sum, piece) => sum + piece.tokens, 0);
  }

  /** Waits until `offsetMs` of the box's time (divided by the time scale) after `origin`. */
  private async until(origin: number, offsetMs: number): Promise<void> {
    const wait = origin + offsetMs / this.scale - performance.now();
    if (wait > 0) await delay(wait);
  }
}
