import type { AssembledToolCall } from './types.js';
import { closeThinkTag, ThinkSplitter } from './think-splitter.js';
import { isRecord } from '../../src/shared/is-record.js';
import type { ModelFigures } from '../../src/shared/model-figures.js';
import { readServerFigures } from './server-figures.js';

// Our own accumulator over raw chat-completion chunks. The SDK's stream helper loses or merges calls on shapes real
// servers send (llama-server, Ollama, vLLM, LM Studio, proxies): whole calls without `index`, first fragments without
// id/type, two calls on index 0, integer ids, object arguments. Every field is checked at run time: the wire does not
// follow types.

export interface RawToolCallDelta {
  index?: number | null;
  id?: string | number | null;
  type?: string | null;
  function?: { name?: string | null; arguments?: unknown } | null;
}

export interface RawDelta {
  role?: string | null;
  content?: unknown;
  reasoning_content?: unknown;
  reasoning?: unknown;
  tool_calls?: RawToolCallDelta[] | null;
}

export interface RawChoice {
  index?: number;
  delta?: RawDelta | null;
  /** Some servers put a whole message in a stream chunk. */
  message?: RawDelta | null;
  finish_reason?: string | null;
}

/** One streamed chunk as it comes off the wire, typed loosely on purpose. */
export interface RawChatChunk {
  choices?: RawChoice[] | null;
}

export interface AccumulatedResult {
  content: string;
  reasoning: string;
  toolCalls: AssembledToolCall[];
  finishReason: string | null;
  /** The server's own figures for the call (server-figures.ts); empty when it sent none. */
  figures: ModelFigures;
}

interface PendingCall {
  index: number | undefined;
  /** The id the server sent, if any. */
  wireId: string | undefined;
  name: string;
  argumentsText: string;
}

export class StreamAccumulator {
  private readonly calls: PendingCall[] = [];
  private readonly splitter = new ThinkSplitter();
  private visible = '';
  private hidden = '';
  private finishReason: string | null = null;
  private openAiShapedChunks = 0;
  private toolArgumentChars = 0;
  private readonly figures: ModelFigures = {};

  /** Visible answer text so far (reasoning and `<think>` blocks excluded). */
  get visibleText(): string {
    return this.visible;
  }

  /** Characters the user would not see: reasoning, `<think>` text, tool-call arguments (for the output bounds). */
  get hiddenLength(): number {
    return this.hidden.length + this.toolArgumentChars;
  }

  /** Chunks that had a `choices` array: zero after a whole stream means the server did not speak OpenAI. */
  get chunkCount(): number {
    return this.openAiShapedChunks;
  }

  /** Adds one chunk; returns the visible text it added (for stream watchers). */
  push(chunk: unknown): string {
    // A later chunk's figure replaces an earlier one: servers that repeat them send running totals.
    Object.assign(this.figures, readServerFigures(chunk));
    if (!isRecord(chunk) || !Array.isArray(chunk.choices)) return '';
    this.openAiShapedChunks += 1;
    let visibleDelta = '';
    for (const choice of chunk.choices as unknown[]) {
      if (!isRecord(choice) || (typeof choice.index === 'number' && choice.index !== 0)) continue;
      const delta = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : undefined;
      if (delta !== undefined) visibleDelta += this.applyDelta(delta);
      if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') this.finishReason = choice.finish_reason;
    }
    return visibleDelta;
  }

  /**
   * Flushes held-back text; the result's tool calls have ids and names, arguments unparsed. With `bounds`, the answer
   * and the reasoning are cut to them (a whole response, or the chunk that crossed a bound, can be longer).
   */
  finish(bounds?: { answerChars: number; reasoningChars: number }): AccumulatedResult {
    const rest = this.splitter.flush();
    this.visible += rest.visible;
    this.hidden += rest.hidden;
    // Qwen3-style templates open <think> in the prompt, so only the closing tag reaches us.
    const orphanClose = this.visible.indexOf(closeThinkTag);
    if (orphanClose >= 0) {
      this.hidden += this.visible.slice(0, orphanClose);
      this.visible = this.visible.slice(orphanClose + closeThinkTag.length).trimStart();
    }
    const toolCalls = this.assembleCalls();
    // A whitespace-only chunk before a call (vLLM PR #32538) is not an answer.
    const content = toolCalls.length > 0 && this.visible.trim() === '' ? '' : this.visible;
    const figures = { ...this.figures };
    if (!bounds) return { content, reasoning: this.hidden, toolCalls, finishReason: this.finishReason, figures };
    return {
      content: cutAt(content, bounds.answerChars),
      reasoning: cutAt(this.hidden, bounds.reasoningChars),
      toolCalls,
      finishReason: this.finishReason,
      figures,
    };
  }

  private applyDelta(delta: Record<string, unknown>): string {
    const reasoningContent = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : '';
    const reasoning = typeof delta.reasoning === 'string' ? delta.reasoning : '';
    // Some servers send the same text under both names; keep it once.
    this.hidden += reasoningContent === reasoning ? reasoning : reasoningContent + reasoning;
    let visibleDelta = '';
    if (typeof delta.content === 'string' && delta.content !== '') {
      const split = this.splitter.push(delta.content);
      this.hidden += split.hidden;
      this.visible += split.visible;
      visibleDelta = split.visible;
    }
    if (Array.isArray(delta.tool_calls)) {
      for (const toolCall of delta.tool_calls as unknown[]) if (isRecord(toolCall)) this.applyToolCall(toolCall);
    }
    return visibleDelta;
  }

  private applyToolCall(delta: Record<string, unknown>): void {
    const index = typeof delta.index === 'number' && Number.isInteger(delta.index) ? delta.index : undefined;
    const wireId = normalizeId(delta.id);
    const functionPart = isRecord(delta.function) ? delta.function : {};
    const name = typeof functionPart.name === 'string' && functionPart.name !== '' ? functionPart.name : undefined;
    const fragment = argumentsFragment(functionPart.arguments);

    let target = this.findTarget(index, wireId);
    if (target !== undefined && this.startsNewCall(target, wireId, name, fragment)) target = undefined;
    if (target === undefined) {
      if (name === undefined && wireId === undefined && fragment === '') return;
      target = { index, wireId: undefined, name: '', argumentsText: '' };
      this.calls.push(target);
    }
    if (wireId !== undefined) target.wireId = wireId;
    if (name !== undefined) target.name = name;
    target.argumentsText += fragment;
    this.toolArgumentChars += fragment.length;
  }

  private findTarget(index: number | undefined, wireId: string | undefined): PendingCall | undefined {
    if (index !== undefined) return findLast(this.calls, (call) => call.index === index);
    if (wireId !== undefined) return findLast(this.calls, (call) => call.wireId === wireId) ?? this.unfinishedUnidentified();
    return this.calls.at(-1);
  }

  // "id only on the first chunk" streams send later fragments without id or index; an id on a call that has none
  // yet (first fragment without id) belongs to the last call while its arguments are incomplete.
  private unfinishedUnidentified(): PendingCall | undefined {
    const last = this.calls.at(-1);
    return last !== undefined && last.wireId === undefined && !isCompleteJson(last.argumentsText) ? last : undefined;
  }

  private startsNewCall(target: PendingCall, wireId: string | undefined, name: string | undefined, fragment: string): boolean {
    if (wireId !== undefined && target.wireId !== undefined && wireId !== target.wireId) return true;
    if (name === undefined || target.name === '') return false;
    // A repeated name with more argument text continues the call (and needs no parse of the text so far).
    if (name === target.name && !beginsJsonValue(fragment)) return false;
    // The previous call is whole: a different name, or a new JSON value, is a second call on the same key.
    return isCompleteJson(target.argumentsText);
  }

  private assembleCalls(): AssembledToolCall[] {
    const usedIds = new Set(this.calls.map((call) => call.wireId).filter((id) => id !== undefined));
    const assembled: AssembledToolCall[] = [];
    let counter = 0;
    for (const call of this.calls) {
      if (call.name === '' && call.argumentsText.trim() === '') continue;
      let id = call.wireId;
      while (id === undefined || (call.wireId === undefined && usedIds.has(id))) {
        counter += 1;
        id = `call_${counter}`;
      }
      usedIds.add(id);
      assembled.push({ id, name: call.name, argumentsText: call.argumentsText });
    }
    return assembled;
  }
}

/** The first `limit` UTF-16 units, never ending in half a surrogate pair. */
function cutAt(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const last = text.charCodeAt(limit - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? limit - 1 : limit);
}

function normalizeId(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function argumentsFragment(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  // Object-typed arguments (some servers and proxies): keep them as the JSON text they stand for.
  return JSON.stringify(value) ?? '';
}

function beginsJsonValue(fragment: string): boolean {
  const first = fragment.trimStart()[0];
  return first === '{' || first === '[';
}

function isCompleteJson(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function findLast<Item>(items: Item[], predicate: (item: Item) => boolean): Item | undefined {
  for (let position = items.length - 1; position >= 0; position -= 1) {
    const item = items[position];
    if (item !== undefined && predicate(item)) return item;
  }
  return undefined;
}

export { parseToolArguments, type ParsedArguments } from './tool-arguments.js';
