import OpenAI from 'openai';
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { Logger } from '../../src/shared/log.js';
import { streamAttempt, wholeAttempt, type AttemptOutcome } from './attempt.js';
import { trimTrailingSlashes } from '../../src/shared/trailing-slashes.js';
import { classifyFailure, extractErrorMessage, isResponseFormatRefusal, isStreamWithToolsUnsupported } from './errors.js';
import type { ServerKind } from './fingerprint.js';
import { withRetries } from './retry.js';
import { asksForUsage } from './server-figures.js';
import { toolCallBan, withBanInstruction } from './tool-ban.js';
import { ModelError, type CompletionRequest, type ModelCallRequest, type ModelCallResult, type ModelClient, type OutputLimits } from './types.js';

export interface ModelClientOptions {
  /** OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1. */
  baseUrl: string;
  apiKey: string;
  /** '' = ask the server (first id of GET /models). */
  model: string;
  /**
   * Longest silence accepted from the server: before the first byte and between chunks. A time-out is not
   * retried, so a silent server costs one such wait per call.
   */
  timeoutMs: number;
  retries: number;
  maxTokens: number;
  /** Our own bounds on each call's output (the server may ignore max_tokens); none when not given. */
  outputLimits?: OutputLimits;
  log: Logger;
  fetch?: typeof globalThis.fetch;
  /** First retry delay (default 500 ms; tests pass a few ms). */
  backoffMs?: number;
  /** The detected server kind, once known: how a call is told not to call tools (tool-ban.ts). */
  server?: () => ServerKind | 'unreachable' | undefined;
}

export function createModelClient(options: ModelClientOptions): ModelClient {
  const baseUrl = trimTrailingSlashes(options.baseUrl);
  const baseFetch = options.fetch ?? globalThis.fetch;
  const client = new OpenAI({
    baseURL: baseUrl,
    // The SDK refuses an empty key; local servers ignore it.
    apiKey: options.apiKey || 'no-key',
    timeout: options.timeoutMs,
    maxRetries: 0,
    fetch: normalizingFetch(baseFetch),
    logLevel: 'off',
  });
  const log = options.log;
  const backoffMs = options.backoffMs ?? 500;
  const limits = options.outputLimits;
  /** The output bounds for a call that starts now: its time bound spans every retry. */
  const bounded = (started: number) => (limits ? { limits, deadline: started + limits.stepMs } : {});
  let listedModel: string | undefined;
  // Old llama-server builds cannot stream when tools are sent; learnt once per client.
  let canStreamWithTools = true;
  // GET /models got no answer in time: the server is silent. The next model call reports the time-out at once
  // instead of waiting as long again (and clears this, so the call after it asks the server again).
  let listingWasSilent = false;

  async function model(): Promise<string> {
    if (options.model !== '') return options.model;
    if (listedModel !== undefined) return listedModel;
    if (listingWasSilent) return '';
    try {
      const response = await baseFetch(`${baseUrl}/models`, {
        headers: { authorization: `Bearer ${options.apiKey}` },
        signal: AbortSignal.timeout(Math.min(options.timeoutMs, 10_000)),
      });
      if (!response.ok) return '';
      listedModel = firstModelId(await response.json());
      log.debug({ model: listedModel }, 'model id from the server');
      return listedModel;
    } catch (error) {
      // Not cached: the server may be starting; llama-server accepts any name meanwhile.
      listingWasSilent = classifyFailure(error).kind === 'timeout';
      log.debug({ error: String(error), silent: listingWasSilent }, 'could not list models');
      return '';
    }
  }

  /** The model name for a call; a time-out when the server was just silent to GET /models. */
  async function modelForCall(): Promise<string> {
    const name = await model();
    if (!listingWasSilent) return name;
    listingWasSilent = false;
    throw new ModelError('timeout', `the model server did not answer GET /models within ${Math.min(options.timeoutMs, 10_000)} ms`);
  }

  /** The tools part of a body, and the messages as sent (a barred call may need the words in the last user message). */
  function toolsPart(offered: ChatCompletionTool[] | undefined, barred: boolean, messages: ChatCompletionMessageParam[]) {
    const tools = offered !== undefined && offered.length > 0 ? offered : undefined;
    // Never `tools: []`: some servers treat it as a tools request.
    if (!tools) return { tools, fields: {}, messages };
    if (!barred) return { tools, fields: { tools, parallel_tool_calls: false }, messages };
    const ban = toolCallBan(options.server?.());
    const fields = { tools, parallel_tool_calls: false, ...(ban.toolChoiceNone ? { tool_choice: 'none' as const } : {}) };
    return { tools, fields, messages: withBanInstruction(messages, ban) };
  }

  async function call(request: ModelCallRequest): Promise<ModelCallResult> {
    const started = performance.now();
    const { tools, fields, messages } = toolsPart(request.tools, request.toolsBarred === true, request.messages);
    const body: ChatCompletionCreateParamsStreaming = {
      model: await modelForCall(),
      messages,
      stream: true,
      max_tokens: request.maxTokens ?? options.maxTokens,
      ...fields,
    };
    // The server's token figures come on a last chunk of their own when asked for (server-figures.ts).
    const streamBody = asksForUsage(options.server?.()) ? { ...body, stream_options: { include_usage: true } } : body;
    let streaming = tools === undefined || canStreamWithTools;
    let textShown = false;
    const attemptOptions = {
      client,
      timeoutMs: options.timeoutMs,
      ...bounded(started),
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.onText ? { onText: request.onText.bind(request) } : {}),
      onVisibleText: () => void (textShown = true),
    };
    const run = () =>
      withRetries('call', () => (streaming ? streamAttempt(streamBody, attemptOptions) : wholeAttempt({ ...body, stream: false }, attemptOptions)), {
        retries: options.retries,
        backoffMs,
        log,
        ...(request.signal ? { signal: request.signal } : {}),
        // Never show the watcher the same text twice.
        mayRetry: (error) => !textShown && !isStreamWithToolsUnsupported(error),
      });
    let outcome: AttemptOutcome;
    try {
      outcome = await run();
    } catch (error) {
      if (!streaming || !(error instanceof ModelError) || !isStreamWithToolsUnsupported(error)) throw error;
      log.debug('server cannot stream with tools; asking without streaming from now on');
      streaming = false;
      canStreamWithTools = false;
      outcome = await run();
    }
    const ms = Math.round(performance.now() - started);
    const { result } = outcome;
    log.debug({ ms, streaming, aborted: outcome.aborted, toolCalls: result.toolCalls.length, finishReason: result.finishReason }, 'model call done');
    if (outcome.cut) {
      log.warn({ ms, cut: outcome.cut, answerChars: result.content.length, reasoningChars: result.reasoning.length }, 'model output cut at our bound');
      return { ...result, aborted: false, cut: outcome.cut, ms };
    }
    return { ...result, aborted: outcome.aborted, ms };
  }

  async function complete(request: CompletionRequest): Promise<string> {
    const { fields, messages } = toolsPart(request.prefix?.tools, true, completionMessages(request));
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: await modelForCall(),
      messages,
      stream: false,
      max_tokens: request.maxTokens ?? options.maxTokens,
      ...fields,
    };
    const schema = request.jsonSchema;
    const withSchema: ChatCompletionCreateParamsNonStreaming = schema
      ? { ...body, response_format: { type: 'json_schema', json_schema: { name: schema.name, schema: schema.schema, strict: true } } }
      : body;
    const attemptOptions = { client, timeoutMs: options.timeoutMs, ...bounded(performance.now()), ...(request.signal ? { signal: request.signal } : {}) };
    const run = (payload: ChatCompletionCreateParamsNonStreaming) =>
      withRetries('complete', () => wholeAttempt(payload, attemptOptions), {
        retries: options.retries,
        backoffMs,
        log,
        ...(request.signal ? { signal: request.signal } : {}),
        mayRetry: (error) => !(schema && isResponseFormatRefusal(error)),
      });
    let outcome: AttemptOutcome;
    try {
      outcome = await run(withSchema);
    } catch (error) {
      if (!schema || !(error instanceof ModelError) || !isResponseFormatRefusal(error)) throw error;
      log.debug('server refused response_format; asking without it');
      outcome = await run(body);
    }
    request.onFigures?.(outcome.result.figures);
    // A call the server let through anyway is no answer: the text is what counts.
    if (outcome.result.toolCalls.length > 0) log.debug({ toolCalls: outcome.result.toolCalls.length }, 'tool call in a completion ignored');
    return outcome.result.content.trim();
  }

  return { baseUrl, model, call, complete };
}

/**
 * Alone: the helper's own system message, then its messages. Inside a turn: the turn's last request unchanged, then
 * one user message that starts with the helper's instruction, so the system message stays the turn's.
 */
function completionMessages(request: CompletionRequest): ChatCompletionMessageParam[] {
  if (!request.prefix) {
    return [...(request.system !== undefined ? [{ role: 'system' as const, content: request.system }] : []), ...request.messages];
  }
  const parts = [request.system, ...request.messages.map((message) => message.content)].filter((part) => part !== undefined && part !== '');
  return [...request.prefix.messages, { role: 'user', content: parts.join('\n\n') }];
}

/** Error bodies come in five shapes; rewrite them to `{"error":{"message"}}` so the SDK error always carries the text. */
function normalizingFetch(baseFetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await baseFetch(input, init);
    if (response.ok) return response;
    const text = await response.text().catch(() => '');
    const message = extractErrorMessage(text) || `HTTP ${response.status}`;
    return new Response(JSON.stringify({ error: { message } }), {
      status: response.status,
      statusText: response.statusText,
      headers: { 'content-type': 'application/json' },
    });
  };
}

function firstModelId(listing: unknown): string {
  if (typeof listing !== 'object' || listing === null || !('data' in listing) || !Array.isArray(listing.data)) return '';
  for (const entry of listing.data as unknown[]) {
    if (typeof entry === 'object' && entry !== null && 'id' in entry && typeof entry.id === 'string' && entry.id !== '') return entry.id;
  }
  return '';
}
