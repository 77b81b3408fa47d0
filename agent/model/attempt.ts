import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { ModelError, type OutputCut, type OutputLimits, type StreamDecision } from './types.js';
import { StreamAccumulator, type AccumulatedResult } from './stream-accumulator.js';

// One HTTP attempt at a chat completion. The SDK's own timeout only covers the wait for headers, so a watchdog
// covers the whole attempt and is re-armed by every chunk: `timeoutMs` is the longest silence we accept. The output
// bounds (`limits`) are ours, for servers that ignore max_tokens: past one, the stream is closed like a watcher's
// abort and what came is kept, cut at the bound.

export interface AttemptOutcome {
  result: AccumulatedResult;
  /** The stream watcher or the caller's signal stopped it. */
  aborted: boolean;
  /** An output bound stopped it. */
  cut?: OutputCut;
}

export interface AttemptOptions {
  client: OpenAI;
  timeoutMs: number;
  signal?: AbortSignal;
  onText?(visibleSoFar: string, delta: string): StreamDecision;
  /** Told before visible text is handed to the watcher (retries must stop from then on). */
  onVisibleText?(): void;
  limits?: OutputLimits;
  /** `performance.now()` by which the whole step must be over (the time bound spans retries). */
  deadline?: number;
}

/** What one attempt learnt while it ran. */
interface AttemptState {
  accumulator: StreamAccumulator;
  cut: OutputCut | undefined;
}

export async function streamAttempt(body: ChatCompletionCreateParamsStreaming, options: AttemptOptions): Promise<AttemptOutcome> {
  const state: AttemptState = { accumulator: new StreamAccumulator(), cut: undefined };
  return guarded(options, state, async (signal, watchdog) => {
    const stream = await options.client.chat.completions.create(body, { signal, timeout: options.timeoutMs });
    for await (const chunk of stream) {
      watchdog.reset();
      if (!deliver(state, chunk, options)) return true;
    }
    return false;
  });
}

/** A non-streamed completion fed through the same accumulator (old llama-server fallback, `complete()`). */
export async function wholeAttempt(body: ChatCompletionCreateParamsNonStreaming, options: AttemptOptions): Promise<AttemptOutcome> {
  const state: AttemptState = { accumulator: new StreamAccumulator(), cut: undefined };
  return guarded(options, state, async (signal) => {
    // The SDK returns the body text when the server did not answer JSON; the accumulator ignores that.
    const completion: unknown = await options.client.chat.completions.create(body, { signal, timeout: options.timeoutMs });
    return !deliver(state, completion, options);
  });
}

/** Pushes one chunk; false when the watcher asked to stop or an output bound was crossed. */
function deliver(state: AttemptState, chunk: unknown, options: AttemptOptions): boolean {
  const { accumulator } = state;
  const delta = accumulator.push(chunk);
  const limits = options.limits;
  if (limits && accumulator.hiddenLength > limits.reasoningChars) state.cut = 'reasoning-length';
  if (limits && accumulator.visibleText.length > limits.answerChars) state.cut = 'answer-length';
  if (state.cut) return false;
  if (delta === '') return true;
  options.onVisibleText?.();
  return options.onText?.(accumulator.visibleText, delta) !== 'abort';
}

interface Watchdog {
  reset(): void;
}

async function guarded(
  options: AttemptOptions,
  state: AttemptState,
  run: (signal: AbortSignal, watchdog: Watchdog) => Promise<boolean>,
): Promise<AttemptOutcome> {
  const { accumulator } = state;
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const watchdog: Watchdog = {
    reset() {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, options.timeoutMs);
    },
  };
  const stepTimer =
    options.deadline === undefined
      ? undefined
      : setTimeout(
          () => {
            state.cut ??= 'time';
            controller.abort();
          },
          Math.max(0, options.deadline - performance.now()),
        );
  const bounds = options.limits;
  const finish = () => accumulator.finish(bounds);
  const stopForCaller = () => controller.abort();
  options.signal?.addEventListener('abort', stopForCaller, { once: true });
  let stoppedByWatcher = false;
  try {
    if (options.signal?.aborted) return { result: finish(), aborted: true };
    watchdog.reset();
    stoppedByWatcher = await run(controller.signal, watchdog);
    // Closing our side at once is what makes the server stop generating.
    if (stoppedByWatcher) controller.abort();
  } catch (error) {
    // Aborting makes the SDK throw (before headers) or end the stream quietly (after): decide below either way.
    if (!timedOut && !options.signal?.aborted && state.cut === undefined) throw error;
  } finally {
    clearTimeout(timer);
    clearTimeout(stepTimer);
    options.signal?.removeEventListener('abort', stopForCaller);
  }
  if (options.signal?.aborted) return { result: finish(), aborted: true };
  if (state.cut) return { result: finish(), aborted: false, cut: state.cut };
  if (timedOut) throw new ModelError('timeout', `the model server was silent for ${options.timeoutMs} ms`);
  if (stoppedByWatcher) return { result: finish(), aborted: true };
  if (accumulator.chunkCount === 0) {
    throw new ModelError('invalid-response', 'the model server did not answer with an OpenAI chat completion');
  }
  return { result: finish(), aborted: false };
}
