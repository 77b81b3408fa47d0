import type { Flavour, RequestBody } from './model-server.js';

// The servers' own figures for a call, placed where each real server puts them. llama-server (tools/server/
// server-task.cpp) adds `timings` to the last chunk of a stream and to a whole response; with
// `stream_options.include_usage` it, Ollama (0.5.2 on, middleware/openai.go) and vLLM end the stream with a chunk of
// `choices: []` and `usage`, and llama-server's `timings` move onto that chunk. A whole response carries `usage`.

/** The prompt is 20 tokens: 12 from llama-server's prompt cache, 8 processed; 5 generated. */
export const fakeUsage = { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 };
export const fakeTimings = {
  cache_n: 12,
  prompt_n: 8,
  prompt_ms: 40.5,
  prompt_per_token_ms: 5.0625,
  prompt_per_second: 197.53,
  predicted_n: 5,
  predicted_ms: 90.1,
  predicted_per_token_ms: 18.02,
  predicted_per_second: 55.49,
};

const honoursIncludeUsage: ReadonlySet<Flavour> = new Set(['llama-server', 'ollama', 'vllm']);

/** The chunks that close a stream: the finish chunk, the usage chunk when asked for, llama-server's timings last. */
export function closingChunks(flavour: Flavour, body: RequestBody, finish: Record<string, unknown>): Record<string, unknown>[] {
  const options = body.stream_options;
  const asked = typeof options === 'object' && options !== null && (options as Record<string, unknown>).include_usage === true;
  const closing = asked && honoursIncludeUsage.has(flavour) ? [finish, { ...finish, choices: [], usage: fakeUsage }] : [finish];
  if (flavour !== 'llama-server') return closing;
  return [...closing.slice(0, -1), { ...closing.at(-1), timings: fakeTimings }];
}

/** The figures a whole (non-streamed) response carries. */
export function wholeResponseFigures(flavour: Flavour): Record<string, unknown> {
  return { usage: fakeUsage, ...(flavour === 'llama-server' ? { timings: fakeTimings } : {}) };
}
