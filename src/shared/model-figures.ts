// The model server's own account of its work: tokens and milliseconds, as it reports them (llama-server's `timings`,
// the OpenAI `usage` most servers send). Every field is optional: a server that says nothing leaves it out, which
// is not the same as 0. Numbers only, never text: they go to the turn log and to /metrics.

export interface ModelFigures {
  /** Tokens in the prompt, cached or not (`usage.prompt_tokens`). */
  promptTokens?: number;
  /** Prompt tokens taken from the server's prompt cache (llama-server `cache_n`). */
  cachedTokens?: number;
  /** Prompt tokens the server processed anew (llama-server `prompt_n`): the CPU's prompt work. */
  processedTokens?: number;
  /** Tokens generated (`usage.completion_tokens`, llama-server `predicted_n`). */
  generatedTokens?: number;
  /** Time spent processing the prompt (llama-server `prompt_ms`). */
  promptMs?: number;
  /** Time spent generating (llama-server `predicted_ms`). */
  generationMs?: number;
}

export const modelFigureNames = ['promptTokens', 'cachedTokens', 'processedTokens', 'generatedTokens', 'promptMs', 'generationMs'] as const;

/** Adds one call's figures into a turn's sums; a field no call reported stays absent. */
export function addModelFigures(total: ModelFigures, step: ModelFigures): void {
  for (const name of modelFigureNames) {
    const value = step[name];
    if (value !== undefined) total[name] = (total[name] ?? 0) + value;
  }
}

/** The sums as logged: milliseconds rounded, absent fields left out. */
export function loggedModelFigures(figures: ModelFigures): ModelFigures {
  const logged: ModelFigures = {};
  for (const name of modelFigureNames) {
    const value = figures[name];
    if (value !== undefined) logged[name] = Math.round(value);
  }
  return logged;
}
