import type { Logger } from './shared/log.js';

/** One look at the model server: llama-server `/health` 200, Ollama `/` 200, or `/v1/models` 200. */
export async function modelServerAnswers(baseUrl: string, timeoutMs = 2_000): Promise<boolean> {
  const origin = new URL(baseUrl).origin;
  const probes = [`${origin}/health`, `${origin}/`, `${baseUrl.replace(/(?<!\/)\/+$/, '')}/models`];
  for (const url of probes) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      await response.body?.cancel();
      if (response.ok) return true;
    } catch {
      // not up (yet), or not at this path
    }
  }
  return false;
}

/**
 * Waits until the model server answers, for pm2 start-up ordering (SAENG_WAIT_FOR_MODEL=1): pm2 cannot wait for
 * another app's readiness, so the bot polls before saying 'ready'.
 */
export async function waitForModelServer(baseUrl: string, options: { timeoutMs: number; log: Logger; intervalMs?: number }): Promise<boolean> {
  const deadline = Date.now() + options.timeoutMs;
  for (let attempt = 1; ; attempt++) {
    if (await modelServerAnswers(baseUrl)) return true;
    if (Date.now() >= deadline) {
      options.log.warn({ baseUrl, attempts: attempt }, 'model server did not answer in time; starting anyway');
      return false;
    }
    if (attempt === 1) options.log.info({ baseUrl }, 'waiting for the model server');
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 2_000));
  }
}

/**
 * Looks again and again (the delays in turn, the last one repeating; timers unref'd, so it never keeps the process
 * up) until the server answers and `onReachable` says it is done (false or a throw: keep looking, the server went
 * away again). Returns a function that stops looking.
 */
export function watchUntilReachable(baseUrl: string, options: { delaysMs: readonly number[]; onReachable: () => Promise<boolean> }): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (attempt: number): void => {
    if (stopped) return;
    const delays = options.delaysMs;
    const delay = delays[Math.min(attempt, delays.length - 1)] ?? 30_000;
    timer = setTimeout(() => void look(attempt), delay);
    timer.unref();
  };
  const look = async (attempt: number): Promise<void> => {
    if (stopped) return;
    if ((await modelServerAnswers(baseUrl)) && !stopped && (await options.onReachable().catch(() => false))) return;
    schedule(attempt + 1);
  };
  schedule(0);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
