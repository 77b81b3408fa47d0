import type { ScriptStep, ScriptedToolCall } from './model-server.js';
import { argumentText, pieces, randomId } from './model-server-wire.js';

// How each server flavour streams tool calls: OpenAI-style fragments (id and type first, arguments in pieces), or one
// whole call per chunk (Ollama), and the quirks the scripts ask for (no index, no id or type, every call at index 0).

export function toolCallDeltas(step: Extract<ScriptStep, { toolCalls: ScriptedToolCall[] }>, flavour: string): Record<string, unknown>[] {
  const style = step.style ?? (flavour === 'ollama' ? 'whole' : 'fragments');
  const deltas: Record<string, unknown>[] = step.text ? [{ content: step.text }] : [];
  step.toolCalls.forEach((call, index) => {
    const id = call.id ?? `call_${randomId()}`;
    if (style === 'fragments' || style === 'no-id-type') {
      const head = style === 'fragments' ? { index, id, type: 'function' } : { index };
      deltas.push({ tool_calls: [{ ...head, function: { name: call.name, arguments: '' } }] });
      for (const piece of pieces(argumentText(call), 7)) deltas.push({ tool_calls: [{ index, function: { arguments: piece } }] });
      return;
    }
    const whole = { id, type: 'function', function: { name: call.name, arguments: call.arguments } };
    const keyed = style === 'no-index' ? whole : { index: style === 'same-index' ? 0 : index, ...whole };
    deltas.push({ tool_calls: [keyed] });
  });
  return deltas;
}
