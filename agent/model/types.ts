import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { ModelFigures } from '../../src/shared/model-figures.js';
import type { ModelCapabilities } from '../../src/shared/types.js';

export type { ChatCompletionMessageParam, ChatCompletionTool };

/** A plain, non-streaming completion for helpers inside tools (relevance checks, fact extraction). */
export interface CompletionRequest {
  system?: string;
  messages: { role: 'user' | 'assistant'; content: string }[];
  maxTokens?: number;
  /** Ask for JSON matching this schema where the server supports `response_format: json_schema`. */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  signal?: AbortSignal;
  /**
   * A call inside a turn: sent after the turn's last request (system message, tools, history as they were), with
   * `system` moved into the appended user message, so the server re-reads only that message. Tools are not callable.
   */
  prefix?: { messages: ChatCompletionMessageParam[]; tools?: ChatCompletionTool[] };
  /** Told the server's figures for the completion (a turn adds them to its own). */
  onFigures?(figures: ModelFigures): void;
}

export type TextCompleter = (request: CompletionRequest) => Promise<string>;

/**
 * Our own bounds on one model step's output, for servers that ignore `max_tokens`: visible answer characters,
 * hidden characters (reasoning, `<think>` text and tool-call arguments) and the step's whole time. Past one, the
 * stream is closed and what came is kept, cut at the bound.
 */
export interface OutputLimits {
  answerChars: number;
  reasoningChars: number;
  stepMs: number;
}

/** Which output bound cut a call. */
export type OutputCut = 'answer-length' | 'reasoning-length' | 'time';

/** Decision of a stream watcher after each text delta. */
export type StreamDecision = 'continue' | 'abort';

export interface ModelCallRequest {
  messages: ChatCompletionMessageParam[];
  /** Omitted (not an empty array) when the model cannot call tools at all. */
  tools?: ChatCompletionTool[];
  /** The tools are sent for the prompt prefix only: the model must answer without calling them. */
  toolsBarred?: boolean;
  maxTokens?: number;
  signal?: AbortSignal;
  /**
   * Called for every visible text delta with the whole visible text so far. Returning 'abort'
   * closes the HTTP request at once (the server must see the connection close).
   */
  onText?(visibleSoFar: string, delta: string): StreamDecision;
}

export interface AssembledToolCall {
  id: string;
  name: string;
  /** Raw argument text as the model produced it (parsed by the caller). */
  argumentsText: string;
}

export interface ModelCallResult {
  /** Visible answer text (reasoning is never in here). */
  content: string;
  /** The hidden thinking channel (`reasoning_content` ∪ `reasoning`). */
  reasoning: string;
  toolCalls: AssembledToolCall[];
  finishReason: string | null;
  /** True when onText asked to abort. */
  aborted: boolean;
  /** An output bound closed the stream: `content` is what came before it (cut at the bound). */
  cut?: OutputCut;
  /** Wall time of the call, including retries. */
  ms: number;
  /** The server's own figures for the call (tokens, cache reuse, its milliseconds); empty when it sent none. */
  figures: ModelFigures;
}

export type ModelErrorKind =
  | 'unreachable' // connection refused / DNS / reset
  | 'timeout'
  | 'loading' // 503 while the model loads
  | 'server-error' // other 5xx
  | 'bad-request' // other 4xx
  | 'tools-unsupported' // the server refused the tools parameter
  | 'context-overflow'
  | 'invalid-response'; // not an OpenAI-shaped answer

export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

export interface ModelClient {
  readonly baseUrl: string;
  /** The model id in use (MODEL_NAME, or the first one the server lists). */
  model(): Promise<string>;
  /** One streamed chat completion with our own tolerant tool-call accumulation. */
  call(request: ModelCallRequest): Promise<ModelCallResult>;
  /** A plain completion for tools (relevance checks, fact extraction). */
  complete: TextCompleter;
}

/** What the agent needs to know about capabilities: the current verdict, and a way to re-detect. */
export interface CapabilitySource {
  current(): Promise<ModelCapabilities>;
  /** Called after a tool-related error so the next turn detects again. */
  forget(): Promise<void>;
}
