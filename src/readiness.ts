import path from 'node:path';
import type { App } from './app.js';
import { appVersion } from './backup/app-version.js';
import { modelServerAnswers } from './model-server-wait.js';
import type { PlatformStates } from './platforms.js';
import type { HealthAnswer, ReadinessAnswer } from './http.js';
import { databaseFileProblem } from './storage/damaged-database.js';
import { freeSpace } from './storage/free-space.js';

// GET /healthz says the process is alive; GET /readyz says whether it can do its work: the model server answers,
// (now: one GET, not the cached detection), every platform runs (one that is down is named with its reason), every store takes a query. OCR is optional (images are then described, not read): it is
// reported, never a reason for 503. Each probe reads cached state or runs one indexed query — no tesseract run.
// A SQLite store's file is also opened afresh and its schema read (the store's own connection may answer from its
// page cache while the file under it is gone or overwritten), and DATA_DIR's disk must have DATA_DIR_MIN_FREE_MB free.

export type ReadinessSource = Pick<App, 'config' | 'capabilities' | 'storage' | 'knowledge' | 'queueStats' | 'ocrStatus'>;

const version = appVersion();

export function healthAnswer(): HealthAnswer {
  return { status: 'ok', uptimeSeconds: Math.round(process.uptime()), version };
}

export async function readinessAnswer(app: ReadinessSource, platforms: PlatformStates): Promise<ReadinessAnswer> {
  const [model, answersNow, state, knowledge, queue, ocr, disk] = await Promise.all([
    app.capabilities.detailed(),
    // Detected capabilities are cached: whether the server answers *now* is asked on every probe (2 s at most).
    modelServerAnswers(app.config.MODEL_BASE_URL),
    // SQLite: one `SELECT 1`; Redis: one PING (bounded, so a hung server cannot hold the probe).
    app.storage.healthy(),
    // A space key no platform makes: the query runs on the index and finds nothing.
    succeeds(() => app.knowledge.listKnowledgeBases({ spaceKey: '' })),
    app.queueStats().catch(() => undefined),
    app.ocrStatus(),
    freeSpace(path.resolve(app.config.DATA_DIR), app.config.DATA_DIR_MIN_FREE_MB),
  ]);
  const storeProblems = sqliteFileProblems(app.config);
  const stores = {
    state: state && !storeProblems.state,
    knowledge: knowledge && !storeProblems.knowledge,
    inbound: queue !== undefined && !storeProblems.inbound,
  };
  const modelReachable = answersNow && model.server !== 'unreachable';
  const ready = modelReachable && platforms.allRunning() && Object.values(stores).every(Boolean) && disk.enough;
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
      ...(Object.keys(storeProblems).length > 0 ? { storeProblems } : {}),
      disk: { freeBytes: disk.freeBytes ?? null, minFreeBytes: disk.minFreeBytes, enough: disk.enough, ...(disk.problem ? { problem: disk.problem } : {}) },
      ocr: ocr.available ? { available: true, engine: ocr.engine, version: ocr.version, languages: ocr.languages } : { available: false, detail: ocr.detail },
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

type StoreName = 'state' | 'knowledge' | 'inbound';

/** Each SQLite file in use (Redis holds state and inbound with REDIS_URL, PostgreSQL knowledge with DATABASE_URL) that cannot be read now. */
function sqliteFileProblems(config: ReadinessSource['config']): Partial<Record<StoreName, string>> {
  const dataDir = path.resolve(config.DATA_DIR);
  const files: [StoreName, string][] = [
    ...(config.REDIS_URL
      ? []
      : ([
          ['state', 'state.db'],
          ['inbound', 'inbound.db'],
        ] as [StoreName, string][])),
    ...(config.DATABASE_URL ? [] : ([['knowledge', 'knowledge.db']] as [StoreName, string][])),
  ];
  const problems: Partial<Record<StoreName, string>> = {};
  for (const [store, name] of files) {
    const problem = databaseFileProblem(path.join(dataDir, name));
    if (problem) problems[store] = `${name}: ${problem}`;
  }
  return problems;
}
