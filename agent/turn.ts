import { say, type Localized } from '../src/shared/i18n.js';
import type { Logger } from '../src/shared/log.js';
import type { Citation, GuardEvent, Language, ModelCapabilities, ProgressEvent, RagMode, Reply, TurnImage, TurnRecord } from '../src/shared/types.js';
import { checkWriteClaim, writeClaimFailure } from './guards/write-claim.js';
import { answerFromToolLog, runAnswerGuards } from './guards/index.js';
import { findLeakedToolCalls } from './guards/leaked-markup.js';
import { createStreamMonitor } from './guards/stream-monitor.js';
import type { AssembledToolCall, ChatCompletionMessageParam, ChatCompletionTool, ModelCallResult, ModelClient } from './model/types.js';
import { userAskedToRepeat } from './repeat-request.js';
import { parseToolArguments } from './model/stream-accumulator.js';
import { runToolCall } from './tool-runner.js';
import type { AnyTool, ToolContext } from './tools/tool.js';

// The ReAct loop (DESIGN §5): stream → run tool calls → append results → repeat, until a final answer or the step
// limit; then the post-answer guards. Expected outcomes are values; only model-server failures throw (ModelError).

export interface TurnSetup {
  conversationKey: string;
  spaceKey: string;
  language: Language;
  question: string;
  dateLine: string;
  /** The newest user message as sent (date line, speaker, question, and naive-RAG passages when any). */
  userContent: string;
  images: TurnImage[];
  history: ChatCompletionMessageParam[];
  systemPrompt: string;
  /** Undefined when the model cannot call tools. */
  toolDefinitions: ChatCompletionTool[] | undefined;
  tools: ReadonlyMap<string, AnyTool>;
  capabilities: ModelCapabilities;
  rag: RagMode;
  /** Naive-RAG passages placed in the user message, and their citations. */
  contextPassages: string[];
  /** Earlier questions and answers of this conversation (figures already checked in their own turns). */
  earlierTurns: string[];
  initialCitations: Citation[];
  boundKnowledgeBaseIds: readonly string[];
  model: ModelClient;
  maxSteps: number;
  dataDir: string;
  secrets: readonly string[];
  log: Logger;
  signal: AbortSignal;
  now(): Date;
  progress(event: ProgressEvent): void;
}

export interface TurnOutcome {
  record: TurnRecord;
  reply: Reply;
}

const cutApology: Localized = {
  th: 'ขออภัย คำตอบของโมเดลผิดปกติจึงถูกตัดไว้ กรุณาถามใหม่อีกครั้ง หรือถามให้เฉพาะเจาะจงขึ้น',
  en: 'Sorry, the model produced a broken answer, so it was cut. Please ask again, or more specifically.',
};
const writeRetryNote: Localized = { th: 'ลองเรียก write_file อีกครั้ง', en: 'retrying write_file' };

export async function executeTurn(setup: TurnSetup): Promise<TurnOutcome> {
  const started = performance.now();
  const record: TurnRecord = {
    conversationKey: setup.conversationKey,
    language: setup.language,
    question: setup.question,
    dateLine: setup.dateLine,
    contextPassages: setup.contextPassages,
    earlierTurns: setup.earlierTurns,
    images: setup.images,
    toolCalls: [],
    drafts: [],
    finalText: '',
    citations: [...setup.initialCitations],
    files: [],
    guardEvents: [],
    stopReason: 'answer',
    rag: setup.rag,
    capabilities: setup.capabilities,
    steps: 0,
    modelMs: 0,
    totalMs: 0,
  };
  const pendingImages: TurnImage[] = [];
  const context: ToolContext = {
    conversationKey: setup.conversationKey,
    spaceKey: setup.spaceKey,
    boundKnowledgeBaseIds: setup.boundKnowledgeBaseIds,
    images: setup.images,
    queueImageForModel: (image) => pendingImages.push(image),
    language: setup.language,
    dataDir: setup.dataDir,
    signal: setup.signal,
    log: setup.log,
    complete: setup.model.complete,
    progress: setup.progress,
    now: setup.now,
    turnState: new Map(),
  };
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: setup.systemPrompt },
    ...setup.history,
    // Images of this turn (vision models only; the agent passes none otherwise) go with the question as data URIs.
    setup.images.length === 0
      ? { role: 'user', content: setup.userContent }
      : { role: 'user', content: [{ type: 'text', text: setup.userContent }, ...setup.images.map(imagePart)] },
  ];
  const repeatRequested = userAskedToRepeat(setup.question);
  const toolNames = [...setup.tools.keys()];

  const callModel = async (withTools: boolean): Promise<ModelCallResult> => {
    const monitor = createStreamMonitor({ userAskedToRepeat: repeatRequested });
    let abortEvent: GuardEvent | undefined;
    let abortKind: 'repetition' | 'leaked-markup' | undefined;
    record.steps++;
    const result = await setup.model.call({
      messages,
      tools: withTools ? setup.toolDefinitions : undefined,
      signal: setup.signal,
      onText: (visible) => {
        const verdict = monitor.inspect(visible);
        if (verdict.action === 'continue') return 'continue';
        abortEvent = verdict.event;
        abortKind = verdict.kind;
        return 'abort';
      },
    });
    record.modelMs += result.ms;
    if (abortEvent) record.guardEvents.push(abortEvent);
    if (result.aborted && abortKind === 'repetition') record.stopReason = 'repetition';
    return result;
  };

  /** Runs calls and appends the assistant message and the tool results. */
  const runCalls = async (calls: AssembledToolCall[], content: string): Promise<void> => {
    messages.push({
      role: 'assistant',
      content: content || null,
      tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.argumentsText } })),
    });
    for (const call of calls) {
      const outcome = await runToolCall(call, setup.tools, record.toolCalls, context);
      record.toolCalls.push(outcome.record);
      record.files.push(...outcome.record.files);
      if (outcome.event) record.guardEvents.push(outcome.event);
      messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.record.result });
      if (outcome.verdict === 'blocked') record.stopReason = 'repeat-call';
    }
    if (pendingImages.length > 0 && setup.capabilities.vision) {
      messages.push({ role: 'user', content: pendingImages.splice(0).map(imagePart) });
    }
  };

  /** The loop proper; leaves the answer (possibly empty) in record.finalText. */
  const loop = async (stepBudget: number): Promise<void> => {
    for (let step = 1; ; step++) {
      const toolsAllowed = setup.toolDefinitions !== undefined && step < stepBudget && record.stopReason !== 'repeat-call';
      const result = await callModel(toolsAllowed);
      if (result.aborted && record.stopReason === 'repetition') {
        record.drafts.push(result.content);
        record.finalText = '';
        return;
      }
      let calls = result.toolCalls;
      let text = result.content;
      if (calls.length === 0) {
        // Tool-call markup printed as text: recover valid calls of our own tools; the user never sees markup.
        const leaked = findLeakedToolCalls(text, toolNames);
        if (leaked.found) {
          const recovered = toolsAllowed ? leaked.calls.filter((call) => isValidCall(setup.tools, call)) : [];
          record.guardEvents.push({
            guard: 'leaked-markup',
            action: recovered.length > 0 ? 'rewrite' : 'block',
            reason: recovered.length > 0 ? `recovered ${recovered.length} tool call(s) from text` : 'tool-call markup cut from the answer',
          });
          record.drafts.push(text);
          text = leaked.cleanedText;
          calls = recovered.map((call, index) => ({ id: `recovered_${record.steps}_${index}`, ...call }));
          if (recovered.length === 0 && result.aborted) record.stopReason = 'leaked-markup';
        }
      }
      if (calls.length > 0 && toolsAllowed) {
        await runCalls(calls, text);
        continue; // after a blocked repeat the next pass has no tools and gives the final answer
      }
      if (calls.length > 0) record.drafts.push(text); // tools asked for at the limit: the answer is what we have
      record.finalText = text.trim();
      if (!toolsAllowed && setup.toolDefinitions !== undefined && step >= stepBudget && record.finalText === '') {
        record.stopReason = 'step-limit';
      }
      return;
    }
  };

  await loop(setup.maxSteps);

  // Write-file claim: asked to save, no successful write → one explicit retry, then an honest message.
  const claim = checkWriteClaim(record);
  if (claim.action === 'retry' && setup.toolDefinitions === undefined) {
    const failure = writeClaimFailure(record);
    record.guardEvents.push(claim.event, failure.event);
    record.finalText = failure.text;
  } else if (claim.action === 'retry') {
    record.guardEvents.push(claim.event);
    record.drafts.push(record.finalText);
    messages.push({ role: 'assistant', content: record.finalText || say(writeRetryNote, setup.language) });
    messages.push({ role: 'user', content: claim.instruction });
    record.stopReason = 'answer';
    await loop(2);
    const second = checkWriteClaim(record);
    if (second.action === 'retry') {
      const failure = writeClaimFailure(record);
      record.guardEvents.push(failure.event);
      record.finalText = failure.text;
    }
  }

  // No usable answer: the step limit goes to the refusal guard (it answers from the tool log and records it);
  // anything else (cut stream, empty answer, blocked repeat) is answered here from the tool log, or apologized for.
  if (record.finalText === '' && record.stopReason !== 'step-limit') {
    record.finalText = record.toolCalls.length === 0 ? say(cutApology, setup.language) : answerFromToolLog(record);
  }

  const guarded = runAnswerGuards(record, { secrets: setup.secrets });
  record.guardEvents.push(...guarded.events);
  record.finalText = guarded.text;
  record.citations = guarded.citations;
  record.totalMs = Math.round(performance.now() - started);
  return { record, reply: { text: guarded.text, files: guarded.blocked ? [] : record.files } };
}

function isValidCall(tools: ReadonlyMap<string, AnyTool>, call: { name: string; argumentsText: string }): boolean {
  const tool = tools.get(call.name);
  const parsed = parseToolArguments(call.argumentsText);
  return tool !== undefined && parsed.ok && tool.input.safeParse(parsed.value).success;
}

function imagePart(image: TurnImage): { type: 'image_url'; image_url: { url: string } } {
  return { type: 'image_url', image_url: { url: `data:${image.mime};base64,${Buffer.from(image.bytes).toString('base64')}` } };
}
