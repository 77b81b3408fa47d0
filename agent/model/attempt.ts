import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import { ModelError, type StreamDecision } from './types.js';
import { StreamAccumulator, type AccumulatedResult } from './stream-accumulator.js';

// One HTTP attempt at a chat completion. The SDK's own timeout only covers the wait for headers, so a watchdog
// covers the whole attempt and is re-armed by every chunk: `timeoutMs` is the longest silence we accept.

export interface AttemptOutcome {
  result: AccumulatedResult;
  /** The stream watcher or the caller's signal stopped it. */
  aborted: boolean;
}

export interface AttemptOptions {
  client: OpenAI;
  timeoutMs: number;
  signal?: AbortSignal;
  onText?(visibleSoFar: string, delta: string): StreamDecision;
  /** Told before visible text is handed to the watcher (retries must stop from then on). */
  onVisibleText?(): void;
}

export async function streamAttempt(body: ChatCompletionCreateParamsStreaming, options: AttemptOptions): Promise<AttemptOutcome> {
  const accumulator = new StreamAccumulator();
  return guarded(options, accumulator, async (signal, watchdog) => {
    const stream = await options.client.chat.completions.create(body, { signal, timeout: options.timeoutMs });
    for await (const chunk of stream) {
      watchdog.reset();
      if (!deliver(accumulator, chunk, options)) return true;
    }
    return false;
  });
}

/** A non-streamed completion fed through the same accumulator (old llama-server fallback, `complete()`). */
export async function wholeAttempt(body: ChatCompletionCreateParamsNonStreaming, options: AttemptOptions): Promise<AttemptOutcome> {
  const accumulator = new StreamAccumulator();
  return guarded(options, accumulator, async (signal) => {
    // The SDK returns the body text when the server did not answer JSON; the accumulator ignores that.
    const completion: unknown = await options.client.chat.completions.create(body, { signal, timeout: options.timeoutMs });
    return !deliver(accumulator, completion, options);
  });
}

/** Pushes one chunk; false when the watcher asked to stop. */
function deliver(accumulator: StreamAccumulator, chunk: unknown, options: AttemptOptions): boolean {
  const delta = accumulator.push(chunk);
  if (delta === '') return true;
  options.onVisibleText?.();
  return options.onText?.(accumulator.visibleText, delta) !== 'abort';
}

interface Watchdog {
  reset(): void;
}

async function guarded(
  options: AttemptOptions,
  accumulator: StreamAccumulator,
  run: (signal: AbortSignal, watchdog: Watchdog) => Promise<boolean>,
): Promise<AttemptOutcome> {
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
  const stopForCaller = () => controller.abort();
  options.signal?.addEventListener('abort', stopForCaller, { once: true });
  let stoppedByWatcher = false;
  try {
    if (options.signal?.aborted) return { result: accumulator.finish(), aborted: true };
    watchdog.reset();
    stoppedByWatcher = await run(controller.signal, watchdog);
    // Closing our side at once is what makes the server stop generating.
    if (stoppedByWatcher) controller.abort();
  } catch (error) {
    // Aborting makes the SDK throw (before headers) or end the stream quietly (after): decide below either way.
    if (!timedOut && !options.signal?.aborted) throw error;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', stopForCaller);
  }
  if (timedOut) throw new ModelError('timeout', `the model server was silent for ${options.timeoutMs} ms`);
  if (stoppedByWatcher || options.signal?.aborted) return { result: accumulator.finish(), aborted: true };
  if (accumulator.chunkCount === 0) {
    throw new ModelError('invalid-response', 'the model server did not answer with an OpenAI chat completion');
  }
  return { result: accumulator.finish(), aborted: false };
}
