import type { ScriptStep } from './model-server.js';

// The real error bodies of the servers, as scripted steps for the fake model server.

/** The real tools-refusal error of each server (captured from llama-server, Ollama and vLLM). */
export function refusalStep(flavour: 'llama-server' | 'ollama' | 'vllm', modelId = 'qwen3.5:2b'): ScriptStep {
  if (flavour === 'llama-server') {
    return { error: { status: 500, body: { error: { code: 500, message: 'tools param requires --jinja flag', type: 'server_error' } } } };
  }
  if (flavour === 'ollama') {
    const message = `registry.ollama.ai/library/${modelId} does not support tools`;
    return { error: { status: 400, body: { error: { message, type: 'invalid_request_error', param: null, code: null } } } };
  }
  const message = '"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser to be set';
  return { error: { status: 400, body: { object: 'error', message, type: 'BadRequestError', param: null, code: 400 } } };
}

/** llama-server while the model loads. */
export function loadingStep(): ScriptStep {
  return { error: { status: 503, body: { error: { code: 503, message: 'Loading model', type: 'unavailable_error' } } } };
}

/** llama-server when the prompt does not fit. */
export function contextOverflowStep(): ScriptStep {
  const message = 'the request exceeds the available context size, try increasing it';
  return { error: { status: 400, body: { error: { code: 400, message, type: 'exceed_context_size_error', n_prompt_tokens: 9000, n_ctx: 8192 } } } };
}
