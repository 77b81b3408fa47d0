import type { Flavour, RequestBody, ScriptStep } from './model-server.js';

// `tool_choice: "none"` as each real server treats it (docs/platforms.md §7.1). llama-server, vLLM and LM Studio
// honour it: the output is not parsed for calls, so what the model wrote as a call comes back as plain text (here in
// the Hermes/Qwen form). Ollama ignores the field (a scripted call stays a call); the generic flavour stands for an
// unknown server and does the same.

const honours: ReadonlySet<Flavour> = new Set(['llama-server', 'vllm', 'lmstudio']);

export function underToolChoice(flavour: Flavour, body: RequestBody, step: ScriptStep): ScriptStep {
  if (body.tool_choice !== 'none' || !honours.has(flavour) || !('toolCalls' in step)) return step;
  const calls = step.toolCalls.map((call) => `<tool_call>\n${JSON.stringify({ name: call.name, arguments: parsed(call.arguments) })}\n</tool_call>`);
  return { text: [step.text ?? '', ...calls].filter((part) => part !== '').join('\n') };
}

function parsed(argumentsText: string | Record<string, unknown>): unknown {
  if (typeof argumentsText !== 'string') return argumentsText;
  try {
    return JSON.parse(argumentsText) as unknown;
  } catch {
    return argumentsText;
  }
}
