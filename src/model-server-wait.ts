import type { Logger } from './shared/log.js';

/**
 * Waits until the model server answers (llama-server `/health` 200, Ollama `/` 200, or `/v1/models` 200), for
 * pm2 start-up ordering: pm2 cannot wait for another app's readiness, so the bot polls before saying 'ready'.
 */
export async function waitForModelServer(baseUrl: string, options: { timeoutMs: number; log: Logger; intervalMs?: number }): Promise<boolean> {
  const origin = new URL(baseUrl).origin;
  const probes = [`${origin}/health`, `${origin}/`, `${baseUrl.replace(/(?<!\/)\/+$/, '')}/models`];
  const deadline = Date.now() + options.timeoutMs;
  for (let attempt = 1; ; attempt++) {
    for (const url of probes) {
      try {
        const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
        await response.body?.cancel();
        if (response.ok) return true;
      } catch {
        // not up yet
      }
    }
    if (Date.now() >= deadline) {
      options.log.warn({ baseUrl, attempts: attempt }, 'model server did not answer in time; starting anyway');
      return false;
    }
    if (attempt === 1) options.log.info({ baseUrl }, 'waiting for the model server');
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 2_000));
  }
}
