import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ServerKind } from './fingerprint.js';

// A request that must not call tools still carries the turn's `tools` array, so that its prompt starts with the same
// bytes as the turn's other requests and the server's prompt cache is reused. How each server is told "no calls"
// comes from its own source and issues (docs/platforms.md §7.1); whatever still comes back as a call is no answer.

export interface ToolCallBan {
  /** Send `tool_choice: "none"` (the server honours it). */
  toolChoiceNone: boolean;
  /** Say so in the last user message too (the server ignores `tool_choice`, or we do not know). */
  instruction: boolean;
}

export function toolCallBan(server: ServerKind | 'unreachable' | undefined): ToolCallBan {
  switch (server) {
    case 'llama-server':
    case 'vllm':
    case 'lmstudio':
      return { toolChoiceNone: true, instruction: false };
    case 'ollama':
      return { toolChoiceNone: false, instruction: true };
    case 'mlx':
    case 'generic':
    case 'unreachable':
    case undefined:
      // Not known: the OpenAI field, and the words for a server that drops it.
      return { toolChoiceNone: true, instruction: true };
  }
}

const noToolsInstruction = 'Answer in plain text now; do not call any tool.';

/** The messages as sent: with the instruction appended to a last user message when the server needs the words. */
export function withBanInstruction(messages: ChatCompletionMessageParam[], ban: ToolCallBan): ChatCompletionMessageParam[] {
  const last = messages.at(-1);
  if (!ban.instruction || last?.role !== 'user' || typeof last.content !== 'string') return messages;
  return [...messages.slice(0, -1), { role: 'user', content: `${last.content}\n\n${noToolsInstruction}` }];
}
