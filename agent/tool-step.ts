import type { AssembledToolCall } from './model/index.js';
import { runToolCall } from './tool-runner.js';
import type { AgentRuntime } from './turn-request.js';
import { imagePart, type TurnState } from './turn-state.js';

// The tool half of a step: the assistant message with its calls, each call run in order, its result appended.

export async function toolStep(turn: TurnState, runtime: AgentRuntime, calls: AssembledToolCall[], content: string): Promise<void> {
  const { record, messages } = turn;
  messages.push({
    role: 'assistant',
    content: content || null,
    tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.argumentsText } })),
  });
  for (const call of calls) {
    turn.reportStep({ kind: 'tool', tool: call.name });
    const outcome = await runToolCall(call, runtime.tools, record.toolCalls, turn.context);
    // A tool that ignores the signal still ends a cancelled turn once it returns.
    turn.context.signal.throwIfAborted();
    record.toolCalls.push(outcome.record);
    record.files.push(...outcome.record.files);
    if (outcome.event) record.guardEvents.push(outcome.event);
    messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.record.result });
    if (outcome.verdict === 'blocked') record.stopReason = 'repeat-call';
  }
  if (turn.pendingImages.length > 0 && record.capabilities.vision) {
    messages.push({ role: 'user', content: turn.pendingImages.splice(0).map(imagePart) });
  }
}
