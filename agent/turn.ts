import { say, type Localized } from '../src/shared/i18n.js';
import type { Language } from '../src/shared/types.js';
import type { TurnOutcome } from '../src/shared/turn-runner.js';
import { languageRetryStep, languageStep, runAnswerGuards, writeClaimStep, type GuardedAnswer } from './guards/index.js';
import { modelStep } from './model-step.js';
import { isFinalAnswer, mayCallTools, reachedStepLimit, streamWasCut } from './stop-predicates.js';
import { toolStep } from './tool-step.js';
import type { AgentRuntime, TurnRequest } from './turn-request.js';
import { startTurn, type TurnState } from './turn-state.js';

// The ReAct loop: stream → run tool calls → append results → repeat, until a final answer or the step limit; then
// the post-answer steps of guards/index.ts, in their one order (docs/architecture.md, "Turn loop and guard order").
// Expected outcomes are values; only model-server failures (ModelError) and a cancel (the signal's abort, after a
// model or tool step) throw.

const writeRetryNote: Localized = { th: 'ลองเรียก write_file อีกครั้ง', en: 'retrying write_file' };
/** Steps of the one write-file retry: a call, then the answer. */
const writeRetrySteps = 2;

export async function executeTurn(request: TurnRequest, runtime: AgentRuntime): Promise<TurnOutcome> {
  const started = performance.now();
  const turn = startTurn(request, runtime);
  const { record } = turn;
  const canRetry = turn.offeredTools !== undefined;

  await answerLoop(turn, runtime, runtime.maxSteps);
  let claim = writeClaimStep(record, { retried: false, canRetry });
  if (claim.action === 'retry') {
    record.guardEvents.push(claim.event);
    askAgainToWrite(turn, claim.instruction, request.language);
    await answerLoop(turn, runtime, writeRetrySteps);
    claim = writeClaimStep(record, { retried: true, canRetry });
  }
  if (claim.action === 'failed') {
    record.guardEvents.push(...claim.events);
    record.finalText = claim.text;
  } else {
    await keepLanguage(turn, runtime);
  }

  const guarded = runAnswerGuards(record, { secrets: runtime.secrets, unreadImages: request.turnImages.unread() });
  record.guardEvents.push(...guarded.events);
  record.finalText = guarded.answer;
  record.citations = guarded.citations;
  noteStreamDivergence(turn, guarded);
  const imagesRead = request.turnImages.readCount();
  if (imagesRead > 0) record.imagesRead = imagesRead;
  record.totalMs = Math.round(performance.now() - started);
  return { record, reply: { text: guarded.text, files: guarded.blocked ? [] : record.files } };
}

/** Model and tools in turn until a final answer; leaves it (possibly empty) in record.finalText. */
async function answerLoop(turn: TurnState, runtime: AgentRuntime, budget: number): Promise<void> {
  const { record } = turn;
  const toolsOffered = turn.offeredTools !== undefined;
  for (let step = 1; ; step++) {
    const toolsAllowed = mayCallTools({ toolsOffered, step, budget, record });
    const answer = await modelStep(turn, runtime, toolsAllowed);
    // A preview of a step that was cut or asks for tools was no answer: the status of the next step replaces it.
    if (streamWasCut(answer) || !isFinalAnswer(answer, toolsAllowed)) turn.preview?.withdraw();
    if (streamWasCut(answer)) {
      record.drafts.push(answer.text);
      record.finalText = '';
      return;
    }
    if (!isFinalAnswer(answer, toolsAllowed)) {
      await toolStep(turn, runtime, answer.calls, answer.text);
      continue; // after a blocked repeat the next pass may not call tools and gives the final answer
    }
    if (answer.calls.length > 0) record.drafts.push(answer.text); // tools asked for at the limit: the answer is what we have
    record.finalText = answer.text.trim();
    if (reachedStepLimit({ toolsOffered, toolsAllowed, step, budget, answer: record.finalText })) record.stopReason = 'step-limit';
    return;
  }
}

/** The one write-file retry: the answer so far becomes a draft, and the model is told to call write_file. */
function askAgainToWrite(turn: TurnState, instruction: string, language: Language): void {
  const { record, messages } = turn;
  record.drafts.push(record.finalText);
  messages.push({ role: 'assistant', content: record.finalText || say(writeRetryNote, language) });
  messages.push({ role: 'user', content: instruction });
  record.stopReason = 'answer';
}

/**
 * The language step: an answer with none of the question's language (Chinese to a Thai question) is asked for once
 * more, with tools barred, in the turn's messages (tool results stay, so the numbers and sources guards still apply).
 * The drifted answer stays a draft; a retry that drifts too gives the notice above the original.
 */
async function keepLanguage(turn: TurnState, runtime: AgentRuntime): Promise<void> {
  const { record, messages } = turn;
  const verdict = languageStep(record, { fixed: turn.languageFixed });
  if (verdict.action === 'pass') return;
  record.guardEvents.push(verdict.event);
  const original = record.finalText;
  record.drafts.push(original);
  messages.push({ role: 'assistant', content: original });
  messages.push({ role: 'user', content: verdict.instruction });
  const retried = await modelStep(turn, runtime, false);
  // A cut or leaked-markup retry leaves the original answer standing, not the refusal guard's rewrite.
  record.stopReason = 'answer';
  record.finalText = streamWasCut(retried) ? '' : retried.text.trim();
  const outcome = languageRetryStep(record, { original, expected: verdict.expected });
  if (outcome.action === 'pass') return;
  record.guardEvents.push(outcome.event);
  if (record.finalText !== '') record.drafts.push(record.finalText);
  record.finalText = outcome.text;
}

/**
 * The final reply should start with what the stream showed (agent/streaming/); when it does not — and no DLP block
 * or cut explains it — the user saw text the guards changed: recorded, so the turn log and /metrics show it.
 */
function noteStreamDivergence(turn: TurnState, guarded: GuardedAnswer): void {
  const shown = turn.preview?.lastShown() ?? '';
  if (shown === '' || guarded.blocked || guarded.text.startsWith(shown)) return;
  turn.record.guardEvents.push({
    guard: 'stream',
    action: 'warn',
    reason: `the streamed text (${shown.length} characters) is not the start of the final answer: the final reply replaced it`,
  });
}
