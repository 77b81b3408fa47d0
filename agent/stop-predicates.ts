import type { TurnRecord } from '../src/shared/types.js';
import type { ModelStep } from './model-step.js';

// When the turn loop stops or changes course: pure predicates over what the loop knows (docs/architecture.md,
// "Turn loop and guard order").

/** The repeat-call guard blocked a call: from then on the model answers without tools. */
export function repeatBlocked(record: TurnRecord): boolean {
  return record.stopReason === 'repeat-call';
}

/** Tools go with this step: the model can call them, steps are left, and no repeat was blocked. */
export function mayCallTools(state: { toolsOffered: boolean; step: number; budget: number; record: TurnRecord }): boolean {
  return state.toolsOffered && state.step < state.budget && !repeatBlocked(state.record);
}

/** The stream monitor cut a repeating answer: the loop ends with no answer. */
export function streamWasCut(step: ModelStep): boolean {
  return step.cutForRepetition;
}

/** Nothing to run: the text is the answer (calls asked for when tools were not allowed are not run). */
export function isFinalAnswer(step: ModelStep, toolsAllowed: boolean): boolean {
  return step.calls.length === 0 || !toolsAllowed;
}

/** The step budget ran out with no answer text: the refusal guard answers from the tool log. */
export function reachedStepLimit(state: { toolsOffered: boolean; toolsAllowed: boolean; step: number; budget: number; answer: string }): boolean {
  return state.toolsOffered && !state.toolsAllowed && state.step >= state.budget && state.answer === '';
}
