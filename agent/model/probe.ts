import { requestJson } from './http.js';
import type { ServerKind } from './fingerprint.js';
import { isRecord } from '../../src/shared/is-record.js';

// One cheap call with a dummy tool decides whether the server and model really produce tool calls (a declaration or a
// chat template only says they might). Its system prompt differs from the real one so the real prompt-cache slot stays
// clean.

export type ProbeOutcome =
  | 'native' // structured tool_calls
  | 'text' // the call came back as text in content (the turn's leaked-markup recovery handles it)
  | 'none' // plain answers, even when the call was required
  | 'refused' // a definitive "this model/server does not take tools"
  | 'unreachable' // refused connection, time-out, model loading: ask again later
  | 'failed'; // some other error: not proof either way

export interface ProbeVerdict {
  outcome: ProbeOutcome;
  detail: string;
}

export interface ProbeOptions {
  baseUrl: string;
  apiKey: string;
  model: string;
  server: ServerKind;
  timeoutMs: number;
  fetch?: typeof globalThis.fetch;
}

const probeSystemPrompt = 'You are a capability check. When a tool fits the request, call it instead of answering.';
const probeQuestion = 'What time is it right now? Use the get_time tool.';
const getTimeTool = {
  type: 'function',
  function: {
    name: 'get_time',
    description: 'Returns the current date and time.',
    parameters: { type: 'object', properties: { timezone: { type: 'string', description: 'IANA time zone (optional)' } }, required: [] },
  },
};
/** `{"name":"get_time"` with the spacing small models use. */
const textCallPattern = /"name"\s{0,4}:\s{0,4}"get_time"/;

export async function probeTools(options: ProbeOptions): Promise<ProbeVerdict> {
  const first = await askOnce(options, false);
  // Ollama has no tool_choice; elsewhere "required" tells a shy model from one whose tools are dropped.
  if (first.outcome !== 'none' || options.server === 'ollama') return first;
  const second = await askOnce(options, true);
  return second.outcome === 'none' ? { outcome: 'none', detail: 'no tool call in two probes (second with tool_choice "required")' } : second;
}

async function askOnce(options: ProbeOptions, required: boolean): Promise<ProbeVerdict> {
  const answer = await requestJson(`${options.baseUrl}/chat/completions`, {
    method: 'POST',
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    body: {
      model: options.model,
      messages: [
        { role: 'system', content: probeSystemPrompt },
        { role: 'user', content: probeQuestion },
      ],
      tools: [getTimeTool],
      ...(required ? { tool_choice: 'required' } : {}),
      max_tokens: 32,
      temperature: 0,
      stream: false,
    },
  });
  if (!answer.ok) {
    const { kind, message } = answer.error;
    if (kind === 'tools-unsupported') return { outcome: 'refused', detail: `the server refused tools: ${message}` };
    if (kind === 'unreachable' || kind === 'timeout' || kind === 'loading') return { outcome: 'unreachable', detail: `probe ${kind}: ${message}` };
    return { outcome: 'failed', detail: `probe failed (${kind}): ${message}` };
  }
  const message = firstMessage(answer.json);
  if (message === undefined) return { outcome: 'failed', detail: 'probe answer is not an OpenAI chat completion' };
  const calledName = firstToolCallName(message.tool_calls);
  if (calledName === 'get_time') return { outcome: 'native', detail: 'probe: structured call to get_time' };
  const content = typeof message.content === 'string' ? message.content.slice(0, 10_000) : '';
  if (content.includes('<tool_call>') || textCallPattern.test(content)) return { outcome: 'text', detail: 'probe: the call came back as text' };
  return { outcome: 'none', detail: `probe: no tool call${calledName ? ` (called "${calledName}")` : ''}` };
}

function firstMessage(completion: unknown): Record<string, unknown> | undefined {
  if (!isRecord(completion) || !Array.isArray(completion.choices)) return undefined;
  const choice: unknown = completion.choices[0];
  return isRecord(choice) && isRecord(choice.message) ? choice.message : undefined;
}

function firstToolCallName(toolCalls: unknown): string | undefined {
  if (!Array.isArray(toolCalls)) return undefined;
  const first: unknown = toolCalls[0];
  if (!isRecord(first) || !isRecord(first.function)) return undefined;
  return typeof first.function.name === 'string' ? first.function.name : undefined;
}
