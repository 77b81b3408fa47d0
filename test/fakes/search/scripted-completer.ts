import type { CompletionRequest, TextCompleter } from '../../../agent/model/index.js';

// The model side of search tests: each call must match the next scripted step; an unscripted call is
// recorded (and answered with an error) so `verify()` fails the test.

export interface CompletionStep {
  /** What this step is for, shown when a call does not match. */
  name: string;
  /** Checks the request (e.g. that the prompt lists the expected results); return false to reject it. */
  expect?: (request: CompletionRequest) => boolean;
  answer: string | ((request: CompletionRequest) => string) | Error;
}

export interface ScriptedCompleter {
  complete: TextCompleter;
  calls: CompletionRequest[];
  /** Throws when a call was unscripted or did not match, or when steps are left over. */
  verify(): void;
}

export function scriptedCompleter(steps: readonly CompletionStep[]): ScriptedCompleter {
  const remaining = [...steps];
  const calls: CompletionRequest[] = [];
  const problems: string[] = [];
  const complete: TextCompleter = async (request) => {
    calls.push(request);
    const step = remaining.shift();
    if (!step) {
      problems.push(`unscripted completion call #${calls.length}: ${request.messages.at(-1)?.content.slice(0, 120) ?? ''}`);
      throw new Error('unscripted completion call');
    }
    if (step.expect && !step.expect(request)) {
      problems.push(`call #${calls.length} did not match step "${step.name}"`);
      throw new Error(`unexpected request for step ${step.name}`);
    }
    if (step.answer instanceof Error) throw step.answer;
    return typeof step.answer === 'function' ? step.answer(request) : step.answer;
  };
  return {
    complete,
    calls,
    verify() {
      if (remaining.length > 0) problems.push(`steps never called: ${remaining.map((step) => step.name).join(', ')}`);
      if (problems.length > 0) throw new Error(problems.join('\n'));
    },
  };
}

/** A completer for paths that must not call the model at all. */
export function noModel(): ScriptedCompleter {
  return scriptedCompleter([]);
}
