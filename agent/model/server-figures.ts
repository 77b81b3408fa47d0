import { isRecord } from '../../src/shared/is-record.js';
import type { ModelFigures } from '../../src/shared/model-figures.js';
import type { ServerKind } from './fingerprint.js';

// The server's figures as they come on the wire: llama-server puts `timings` (cache_n, prompt_n, prompt_ms,
// predicted_n, predicted_ms, …) on its last streamed chunk and on a whole response; with
// `stream_options.include_usage` llama-server, Ollama and vLLM send a last chunk with `choices: []` and `usage`.
// The wire is untrusted: a field that is not a finite number within bounds is ignored, never an error.

/** No prompt or answer of a local model comes near this; more is a broken or hostile server. */
const maxTokens = 100_000_000;
/** A day: longer than any call we wait for. */
const maxMs = 86_400_000;

/** The figures one chunk (or whole response) carries; empty when it carries none. */
export function readServerFigures(chunk: unknown): ModelFigures {
  if (!isRecord(chunk)) return {};
  const figures: ModelFigures = {};
  const usage = isRecord(chunk.usage) ? chunk.usage : {};
  const timings = isRecord(chunk.timings) ? chunk.timings : {};
  const details = isRecord(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  set(figures, 'promptTokens', bounded(usage.prompt_tokens, maxTokens));
  set(figures, 'generatedTokens', bounded(usage.completion_tokens, maxTokens) ?? bounded(timings.predicted_n, maxTokens));
  // OpenAI's own name for cache hits (vLLM sends it too); llama-server's `cache_n` says the same.
  set(figures, 'cachedTokens', bounded(timings.cache_n, maxTokens) ?? bounded(details.cached_tokens, maxTokens));
  set(figures, 'processedTokens', bounded(timings.prompt_n, maxTokens));
  set(figures, 'promptMs', bounded(timings.prompt_ms, maxMs));
  set(figures, 'generationMs', bounded(timings.predicted_ms, maxMs));
  // Without `usage`, llama-server's prompt is what came from the cache plus what it processed.
  if (figures.promptTokens === undefined && figures.cachedTokens !== undefined && figures.processedTokens !== undefined) {
    figures.promptTokens = figures.cachedTokens + figures.processedTokens;
  }
  return figures;
}

function bounded(value: unknown, max: number): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= max ? value : undefined;
}

function set(figures: ModelFigures, name: keyof ModelFigures, value: number | undefined): void {
  if (value !== undefined) figures[name] = value;
}

/**
 * Whether to ask for `stream_options.include_usage`: only servers whose sources honour it (llama-server, Ollama
 * since 0.5.2, vLLM). An older Ollama or llama-server ignores the field; an unknown server might refuse it.
 */
export function asksForUsage(server: ServerKind | 'unreachable' | undefined): boolean {
  return server === 'llama-server' || server === 'ollama' || server === 'vllm';
}
