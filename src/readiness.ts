import type { App } from './app.js';
import { appVersion } from './backup/app-version.js';
import { modelServerAnswers } from './model-server-wait.js';
import type { PlatformStates } from './platforms.js';
import type { HealthAnswer, ReadinessAnswer } from './http.js';

// GET /healthz says the process is alive; GET /readyz says whether it can do its work: the model server answers,
// (now: one GET, not the cached detection), every platform runs (one that is down is named with its reason), every store takes a query. OCR is optional (images are then described, not read): it is
// reported, never a reason for 503. Each probe reads cached state or runs one indexed query — no tesseract run.

export type ReadinessSource = Pick<App, 'config' | 'capabilities' | 'storage' | 'knowledge' | 'queueStats' | 'ocrStatus'>;

const version = appVersion();

export function healthAnswer(): HealthAnswer {
  return { status: 'ok', uptimeSeconds: Math.round(process.uptime()), version };
}

export async function readinessAnswer(app: ReadinessSource, platforms: PlatformStates): Promise<ReadinessAnswer> {
  const [model, answersNow, state, knowledge, queue, ocr] = await Promise.all([
    app.capabilities.detailed(),
    // Detected capabilities are cached: whether the server answers *now* is asked on every probe (2 s at most).
    modelServerAnswers(app.config.MODEL_BASE_URL),
    // SQLite: one `SELECT 1`; Redis: one PING (bounded, so a hung server cannot hold the probe).
    app.storage.healthy(),
    // A space key no platform makes: the query runs on the index and finds nothing.
    succeeds(() => app.knowledge.listKnowledgeBases({ spaceKey: '' })),
    app.queueStats().catch(() => undefined),
    app.ocrStatus(),
  ]);
  const stores = { state, knowledge, inbound: queue !== undefined };
  const modelReachable = answersNow && model.server !== 'unreachable';
  const ready = modelReachable && platforms.allRunning() && Object.values(stores).every(Boolean);
  return {
    ready,
    detail: {
      modelServer: {
        reachable: modelReachable,
        server: model.server,
        tools: model.tools,
        vision: model.vision,
        toolsSource: model.toolsSource,
        visionSource: model.visionSource,
      },
      platforms: platforms.report(),
      // A platform that is down: why (a fixed, secret-free phrase) and when its start is tried again.
      platformsDown: Object.fromEntries(
        Object.entries(platforms.downReport()).map(([platform, problem]) => [
          platform,
          { reason: problem.reason.en, ...(problem.nextAttemptAt ? { nextAttemptAt: problem.nextAttemptAt.toISOString() } : {}) },
        ]),
      ),
      stores,
      ocr: ocr.available ? { available: true, version: ocr.version, languages: ocr.languages } : { available: false, detail: ocr.detail },
      queue: queue ? { pending: queue.pending, oldestPendingAgeSeconds: queue.oldestPendingAgeSeconds } : null,
    },
  };
}

async function succeeds(query: () => Promise<unknown>): Promise<boolean> {
  try {
    await query();
    return true;
  } catch {
    return false;
  }
}
