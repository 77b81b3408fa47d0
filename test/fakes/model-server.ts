import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { isRecord } from '../../src/shared/is-record.js';
import { llamaProps, ollamaShow } from './model-server-metadata.js';
import { closingChunks, wholeResponseFigures } from './model-server-figures.js';
import { streamEndlessly, type EndlessStep } from './model-server-endless.js';
import { underToolChoice } from './model-server-tool-choice.js';
import { Pacer, type PacedCall, type PaceOptions } from './model-server-pace.js';
import { toolCallDeltas } from './model-server-tool-deltas.js';
import { argumentText, isJsonText, nowSeconds, pieces, randomId, readBody, sendJson, sseData, startSse } from './model-server-wire.js';

export { contextOverflowStep, loadingStep, refusalStep } from './model-server-error-steps.js';
export { fakeTimings, fakeUsage } from './model-server-figures.js';
export type { PacedCall, PaceOptions, PaceTokenizer } from './model-server-pace.js';

// A scripted OpenAI-compatible model server on 127.0.0.1. Chat completions are answered from scripted steps, in
// order; the flavour endpoints (/props, /api/show, …) answer from the options.
// SSE framing, chunk shapes and error bodies follow the real servers, quirks included.

export type Flavour = 'llama-server' | 'ollama' | 'vllm' | 'lmstudio' | 'generic';

export interface FakeModelServerOptions {
  flavour?: Flavour;
  /** Undefined: the server declares nothing (an older build), so clients must probe. */
  declaredTools?: boolean;
  declaredVision?: boolean;
  modelId?: string;
  /** Answers every chat call the script does not cover (load tests): the text from the request, after a fixed delay. */
  answer?: { text: (body: RequestBody) => string; delayMs?: number };
  /** Takes a CPU box's time on text and tool-call answers (model-server-pace.ts). */
  pace?: PaceOptions;
}

export type RequestBody = Record<string, unknown>;

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
}

export interface ScriptedToolCall {
  name: string;
  arguments: string | Record<string, unknown>;
  id?: string | number;
}

interface StepBase {
  /** Assertions on the request body; a failure is recorded in `unexpected`. */
  expect?: (body: RequestBody) => void;
  /** For one kind of request only: when the next request does not match, the step is dropped unused. */
  when?: (body: RequestBody) => boolean;
}

export type ScriptStep = StepBase &
  (
    | { text: string; chunkSize?: number; reasoning?: string }
    | { toolCalls: ScriptedToolCall[]; style?: 'fragments' | 'whole' | 'no-index' | 'no-id-type' | 'same-index'; text?: string }
    | { chunks: unknown[] }
    | { error: { status: number; body: string | Record<string, unknown> } }
    /** Keeps the response open until the client gives up; with `text`, a streamed start of an answer first. */
    | { hang: true; text?: string }
    | { repeatText: string; times: number; delayMs?: number }
    | { garbage: string; status?: number }
    /** Ignores max_tokens: streams until the client closes the connection (bounded in the fake). */
    | { endless: EndlessStep }
    /** A text answer written from the request (a judge that reads the items it is asked about). */
    | { reply: (body: RequestBody) => string }
  );

export interface FakeModelServer {
  /** Origin + '/v1': what MODEL_BASE_URL would be. */
  url: string;
  origin: string;
  script(...steps: ScriptStep[]): void;
  requests: RecordedRequest[];
  /** Bodies of chat-completion requests only. */
  chatRequests: RequestBody[];
  unexpected: string[];
  /** Responses whose client closed the connection before the fake finished writing. */
  closedEarly: number;
  /** Resolves once `count` responses were closed early by their client (an aborted request). */
  whenClosedEarly(count?: number): Promise<void>;
  /** Repeats actually written by `repeatText` steps. */
  repeatsSent: number;
  /** Characters written by `endless` steps (ended by the client's close or the fake's bound). */
  endlessCharsSent: number;
  /**
   * Streams more text into the response a `hang` step holds open (the model went on writing); with `finish`, then
   * ends it as an answer ends. False when none is open.
   */
  continueHanging(text: string, options?: { finish?: boolean }): boolean;
  /** With `pace`: every paced chat call, in arrival order (prompt tokens, first byte, first answer token, end). */
  paced: PacedCall[];
  assertAllConsumed(): void;
  close(): Promise<void>;
}

export async function startFakeModelServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const flavour = options.flavour ?? 'generic';
  const modelId = options.modelId ?? (flavour === 'ollama' ? 'qwen3.5:2b' : 'qwen3.5-2b');
  const steps: ScriptStep[] = [];
  const sockets = new Set<Socket>();
  let sequence = 0;
  const closedEarlyWaiters: { count: number; resolve: () => void }[] = [];
  let hanging: { response: ServerResponse; id: string } | undefined;
  const pacer = options.pace ? new Pacer(options.pace) : undefined;

  const fake: FakeModelServer = {
    url: '',
    origin: '',
    script: (...added) => void steps.push(...added),
    requests: [],
    chatRequests: [],
    unexpected: [],
    closedEarly: 0,
    whenClosedEarly: (count = 1) => new Promise<void>((resolve) => (fake.closedEarly >= count ? resolve() : closedEarlyWaiters.push({ count, resolve }))),
    repeatsSent: 0,
    endlessCharsSent: 0,
    continueHanging: (text, options) => {
      const open = hanging && !hanging.response.destroyed && !hanging.response.writableEnded ? hanging : undefined;
      for (const delta of open ? textDeltas({ text }) : []) open?.response.write(sseData(chunk(open.id, delta, null)));
      if (open && options?.finish) open.response.end(sseData(chunk(open.id, {}, 'stop')) + 'data: [DONE]\n\n');
      return open !== undefined;
    },
    paced: pacer?.log ?? [],
    assertAllConsumed() {
      const problems = [...fake.unexpected];
      if (steps.length > 0) problems.push(`${steps.length} scripted step(s) not consumed`);
      if (problems.length > 0) throw new Error(`fake model server: ${problems.join('; ')}`);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      fake.unexpected.push(`fake failed: ${String(error)}`);
      if (!response.headersSent) sendJson(response, 500, { error: { message: 'fake failed' } });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url ?? '/';
    const body = await readBody(request);
    fake.requests.push({ method: request.method ?? 'GET', path, body });
    response.on('close', () => {
      if (response.writableEnded) return;
      fake.closedEarly += 1;
      for (const waiter of closedEarlyWaiters.filter((candidate) => fake.closedEarly >= candidate.count)) waiter.resolve();
    });
    if (request.method === 'POST' && path.split('?')[0] === '/v1/chat/completions') {
      const chatBody = isRecord(body) ? body : {};
      fake.chatRequests.push(chatBody);
      while (steps[0]?.when && !steps[0].when(chatBody)) steps.shift();
      const scripted = steps.shift();
      const step = scripted ?? standingAnswer(chatBody);
      // The fixed delay stands for the model's time on a load test, where it is measured, never asserted.
      if (scripted === undefined && options.answer?.delayMs) await new Promise((resolve) => setTimeout(resolve, options.answer?.delayMs));
      if (step === undefined) {
        fake.unexpected.push(`unscripted call: POST ${path}`);
        sendJson(response, 500, { error: { message: `unscripted call POST ${path}`, type: 'server_error' } });
        return;
      }
      try {
        step.expect?.(chatBody);
      } catch (error) {
        fake.unexpected.push(`expectation failed on chat call ${fake.chatRequests.length}: ${error instanceof Error ? error.message : String(error)}`);
      }
      await answerStep(underToolChoice(flavour, chatBody, step), chatBody, response);
      return;
    }
    answerFlavourEndpoint(request.method ?? 'GET', path, body, response);
  }

  function standingAnswer(body: RequestBody): ScriptStep | undefined {
    if (!options.answer) return undefined;
    return { text: options.answer.text(body) };
  }

  async function answerStep(step: ScriptStep, body: RequestBody, response: ServerResponse): Promise<void> {
    if ('reply' in step) return answerStep({ text: step.reply(body) }, body, response);
    const streaming = body.stream === true;
    if ('hang' in step) {
      // The socket stays open until the client gives up or close() runs.
      if (step.text === undefined || !streaming) return;
      startSse(response);
      const id = nextId();
      for (const delta of [{ role: 'assistant', content: '' }, ...textDeltas({ text: step.text })]) response.write(sseData(chunk(id, delta, null)));
      hanging = { response, id };
      return;
    }
    if ('error' in step) {
      const text = typeof step.error.body === 'string' ? step.error.body : JSON.stringify(step.error.body);
      const type = isJsonText(text) ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8';
      response.writeHead(step.error.status, { 'content-type': type }).end(text);
      return;
    }
    if ('garbage' in step) {
      response.writeHead(step.status ?? 200, { 'content-type': 'text/html; charset=utf-8' }).end(step.garbage);
      return;
    }
    if ('chunks' in step) {
      startSse(response);
      for (const chunk of step.chunks) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      response.end('data: [DONE]\n\n');
      return;
    }
    if ('endless' in step) {
      startSse(response);
      const id = nextId();
      fake.endlessCharsSent += await streamEndlessly(step.endless, response, (delta, finish) => chunk(id, delta, finish));
      return;
    }
    if ('repeatText' in step) {
      startSse(response);
      const id = nextId();
      for (let count = 0; count < step.times; count += 1) {
        if (response.destroyed || response.writableEnded) return;
        response.write(sseData(chunk(id, { content: step.repeatText }, null)));
        fake.repeatsSent += 1;
        await new Promise((resolve) => setTimeout(resolve, step.delayMs ?? 20));
      }
      if (!response.destroyed) response.end(sseData(chunk(id, {}, 'stop')) + 'data: [DONE]\n\n');
      return;
    }
    const paced = pacer?.begin(body);
    const deltas = 'toolCalls' in step ? toolCallDeltas(step, flavour) : textDeltas(step);
    const finishReason = 'toolCalls' in step ? 'tool_calls' : 'stop';
    await paced?.readPrompt();
    if (!streaming) {
      for (const delta of deltas) await paced?.generate(delta);
      sendJson(response, 200, completion(step, finishReason));
      return paced?.ended();
    }
    startSse(response);
    const id = nextId();
    // Ollama repeats the role on every chunk; the others announce it once.
    const all = flavour === 'ollama' ? deltas.map((delta) => ({ role: 'assistant', ...delta })) : [{ role: 'assistant', content: '' }, ...deltas];
    for (const [index, delta] of all.entries()) {
      // Paced: a delta goes out once its tokens were generated (the role announcement costs none).
      await paced?.generate(deltas[index - all.length + deltas.length]);
      if (response.destroyed) return;
      response.write(sseData(chunk(id, delta, null)));
      paced?.wrote(delta);
    }
    // Every flavour ends with a separate finish chunk; the server's figures close the stream (model-server-figures.ts).
    const finishDelta = flavour === 'ollama' ? { role: 'assistant', content: '' } : flavour === 'vllm' ? { content: '' } : {};
    for (const closing of closingChunks(flavour, body, chunk(id, finishDelta, finishReason))) response.write(sseData(closing));
    response.end('data: [DONE]\n\n');
    paced?.ended();
  }

  function textDeltas(step: { text: string; chunkSize?: number; reasoning?: string }): Record<string, unknown>[] {
    const reasoningField = flavour === 'ollama' ? 'reasoning' : 'reasoning_content';
    if (pacer) return pacer.textDeltas(step.text, step.reasoning ?? '', reasoningField);
    const size = step.chunkSize ?? 8;
    return [
      ...pieces(step.reasoning ?? '', size).map((piece) => ({ [reasoningField]: piece })),
      ...pieces(step.text, size).map((piece) => ({ content: piece })),
    ];
  }

  function completion(step: ScriptStep, finishReason: string): Record<string, unknown> {
    const message: Record<string, unknown> = { role: 'assistant', content: null };
    if ('text' in step && step.text !== undefined) message.content = step.text;
    if ('reasoning' in step && step.reasoning) message[flavour === 'ollama' ? 'reasoning' : 'reasoning_content'] = step.reasoning;
    if ('toolCalls' in step) {
      message.tool_calls = step.toolCalls.map((call) => ({
        id: call.id ?? `call_${randomId()}`,
        type: 'function',
        function: { name: call.name, arguments: argumentText(call) },
      }));
    }
    return {
      id: nextId(),
      object: 'chat.completion',
      created: nowSeconds(),
      model: modelId,
      ...(flavour === 'ollama' ? { system_fingerprint: 'fp_ollama' } : {}),
      choices: [{ index: 0, message, finish_reason: finishReason }],
      ...wholeResponseFigures(flavour),
    };
  }

  function chunk(id: string, delta: Record<string, unknown>, finishReason: string | null): Record<string, unknown> {
    return {
      id,
      object: 'chat.completion.chunk',
      created: nowSeconds(),
      model: modelId,
      ...(flavour === 'ollama' ? { system_fingerprint: 'fp_ollama' } : {}),
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    };
  }

  function answerFlavourEndpoint(method: string, fullPath: string, body: unknown, response: ServerResponse): void {
    const path = fullPath.split('?')[0] ?? fullPath;
    const declaredTools = options.declaredTools;
    const declaredVision = options.declaredVision;
    const key = `${method} ${path}`;
    if (flavour === 'llama-server') {
      if (key === 'GET /props') return sendJson(response, 200, llamaProps(modelId, declaredTools, declaredVision));
      if (key === 'GET /health') return sendJson(response, 200, { status: 'ok' });
      if (key === 'GET /v1/models') {
        const capabilities = declaredVision ? ['completion', 'multimodal'] : ['completion'];
        return sendJson(response, 200, {
          models: [{ name: modelId, model: modelId, modified_at: '', size: '', digest: '', type: 'model', capabilities }],
          object: 'list',
          data: [{ id: modelId, object: 'model', created: nowSeconds(), owned_by: 'llamacpp', meta: { n_ctx_train: 262144, n_params: 2_000_000_000 } }],
        });
      }
    }
    if (flavour === 'ollama') {
      if (key === 'GET /') return void response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('Ollama is running');
      if (key === 'GET /api/version') return sendJson(response, 200, { version: '0.12.3' });
      if (key === 'GET /api/tags') return sendJson(response, 200, { models: [{ name: modelId, model: modelId, size: 1_280_000_000, digest: 'abc123' }] });
      if (key === 'GET /v1/models')
        return sendJson(response, 200, { object: 'list', data: [{ id: modelId, object: 'model', created: nowSeconds(), owned_by: 'library' }] });
      if (key === 'POST /api/show') {
        const requested = isRecord(body) ? (body.model ?? body.name) : undefined;
        if (requested !== modelId) return sendJson(response, 404, { error: `model '${String(requested)}' not found` });
        return sendJson(response, 200, ollamaShow(declaredTools, declaredVision));
      }
    }
    if (flavour === 'vllm') {
      if (key === 'GET /health') return void response.writeHead(200).end();
      if (key === 'GET /v1/models') {
        const entry = { id: modelId, object: 'model', created: nowSeconds(), owned_by: 'vllm', root: modelId, parent: null, max_model_len: 8192 };
        return sendJson(response, 200, { object: 'list', data: [entry] });
      }
    }
    if (flavour === 'lmstudio') {
      if (key === 'GET /v1/models')
        return sendJson(response, 200, { object: 'list', data: [{ id: modelId, object: 'model', owned_by: 'organization_owner' }] });
      if (key === 'GET /api/v0/models') {
        const entry = {
          id: modelId,
          object: 'model',
          type: declaredVision ? 'vlm' : 'llm',
          publisher: 'qwen',
          arch: 'qwen35',
          compatibility_type: 'gguf',
          quantization: 'Q4_K_M',
          state: 'loaded',
          max_context_length: 32768,
          ...(declaredTools === undefined ? {} : { capabilities: declaredTools ? ['tool_use'] : [] }),
        };
        return sendJson(response, 200, { object: 'list', data: [entry] });
      }
      if (key === 'GET /api/v1/models') {
        const entry = {
          type: 'llm',
          publisher: 'qwen',
          key: modelId,
          display_name: 'Qwen3.5 2B',
          architecture: 'qwen35',
          quantization: { name: 'Q4_K_M', bits_per_weight: 4 },
          max_context_length: 32768,
          format: 'gguf',
          loaded_instances: [{ id: modelId, config: { context_length: 8192 } }],
          capabilities: { vision: declaredVision ?? false, trained_for_tool_use: declaredTools ?? false },
        };
        return sendJson(response, 200, { models: [entry] });
      }
    }
    if (flavour === 'generic' && key === 'GET /v1/models') {
      return sendJson(response, 200, { object: 'list', data: [{ id: modelId, object: 'model', created: nowSeconds(), owned_by: 'system' }] });
    }
    response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found');
  }

  function nextId(): string {
    sequence += 1;
    return `chatcmpl-${sequence}`;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  fake.origin = `http://127.0.0.1:${port}`;
  fake.url = `${fake.origin}/v1`;
  return fake;
}
