import { addModelFigures } from '../src/shared/model-figures.js';
import type { GuardEvent } from '../src/shared/types.js';
import { findLeakedToolCalls } from './guards/leaked-markup.js';
import { createStreamMonitor } from './guards/stream-monitor.js';
import { parseToolArguments, type AssembledToolCall, type OutputCut } from './model/index.js';
import type { AnyTool } from './tools/tool.js';
import { repeatBlocked } from './stop-predicates.js';
import type { AgentRuntime } from './turn-request.js';
import type { TurnState } from './turn-state.js';

// One streamed model call, watched by the stream monitor, read into text and tool calls. Tool-call markup printed
// as text is cut from the answer; valid calls of our own tools in it are recovered (the user never sees markup).

export interface ModelStep {
  /** The answer text (leaked markup cut). */
  text: string;
  /** Tool calls the model asked for, native or recovered from its text. */
  calls: AssembledToolCall[];
  /** The stream monitor stopped a repeating answer: nothing of it is kept. */
  cutForRepetition: boolean;
}

export async function modelStep(turn: TurnState, runtime: AgentRuntime, toolsAllowed: boolean): Promise<ModelStep> {
  const { record } = turn;
  const monitor = createStreamMonitor({ userAskedToRepeat: turn.userAskedToRepeat });
  let abortEvent: GuardEvent | undefined;
  let abortKind: 'repetition' | 'leaked-markup' | undefined;
  record.steps++;
  turn.reportStep({ kind: 'model' });
  turn.preview?.startStep();
  turn.sentCount = turn.messages.length;
  // The tools go with every request of the turn, callable or not: the prompt prefix stays the same bytes.
  const result = await runtime.model.call({
    messages: turn.messages,
    tools: turn.offeredTools,
    toolsBarred: !toolsAllowed,
    signal: turn.context.signal,
    onText: (visible) => {
      const verdict = monitor.inspect(visible);
      if (verdict.action === 'continue') {
        turn.preview?.onText(visible);
        return 'continue';
      }
      abortEvent = verdict.event;
      abortKind = verdict.kind;
      return 'abort';
    },
  });
  record.modelMs += result.ms;
  addModelFigures(record.modelFigures, result.figures);
  // A cancelled turn ends here: what the aborted stream gave is no answer.
  turn.context.signal.throwIfAborted();
  if (abortEvent) record.guardEvents.push(abortEvent);
  if (result.aborted && abortKind === 'repetition') {
    record.stopReason = 'repetition';
    return { text: result.content, calls: [], cutForRepetition: true };
  }
  // An output bound closed the stream: what came is the answer (guarded as usual, with a note that it was cut);
  // calls from a cut stream may be incomplete and are not run.
  if (result.cut) {
    record.stopReason = 'output-limit';
    record.guardEvents.push({ guard: 'output-limit', action: 'rewrite', reason: outputCutReason(result.cut, result.content.length) });
  } else if (result.toolCalls.length > 0) return { text: result.content, calls: result.toolCalls, cutForRepetition: false };

  const leaked = findLeakedToolCalls(result.content, [...runtime.tools.keys()]);
  if (!leaked.found) return { text: result.content, calls: [], cutForRepetition: false };
  const recovered = toolsAllowed && !result.cut ? leaked.calls.filter((call) => isValidCall(runtime.tools, call)) : [];
  record.guardEvents.push({
    guard: 'leaked-markup',
    action: recovered.length > 0 ? 'rewrite' : 'block',
    reason: recovered.length > 0 ? `recovered ${recovered.length} tool call(s) from text` : 'tool-call markup cut from the answer',
  });
  record.drafts.push(result.content);
  // After a blocked repeat the block stays the reason: a server that honours tool_choice "none" hands the model's
  // further call back as this markup.
  if (recovered.length === 0 && result.aborted && !result.cut && !repeatBlocked(record)) record.stopReason = 'leaked-markup';
  return {
    text: leaked.cleanedText,
    calls: recovered.map((call, index) => ({ id: `recovered_${record.steps}_${index}`, ...call })),
    cutForRepetition: false,
  };
}

function outputCutReason(cut: OutputCut, kept: number): string {
  const bound = cut === 'time' ? 'the step time bound' : cut === 'answer-length' ? 'the answer length bound' : 'the reasoning length bound';
  return `model output reached ${bound}: stream closed, ${kept} character(s) of answer kept`;
}

function isValidCall(tools: ReadonlyMap<string, AnyTool>, call: { name: string; argumentsText: string }): boolean {
  const tool = tools.get(call.name);
  const parsed = parseToolArguments(call.argumentsText);
  return tool !== undefined && parsed.ok && tool.input.safeParse(parsed.value).success;
}
