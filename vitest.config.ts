import os from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files that start real processes (the bot, the CLI, pm2, servers, parse workers) and spend most of their time
 * waiting on them. The `process` project runs them first, longest first, so the quick `unit` files fill the workers
 * in between and the run does not end on one long file; `npx vitest run --project unit` is the quick loop.
 */
const processTests = [
  'test/deploy/**/*.test.ts',
  'test/e2e/crash-recovery.test.ts',
  'test/e2e/*/crash.test.ts',
  'test/e2e/*/crash-*.test.ts',
  'test/e2e/scale-out/**/*.test.ts',
  'test/e2e/startup/**/*.test.ts',
  'test/e2e/hardening/**/*.test.ts',
  'test/e2e/http-fuzz.test.ts',
  'test/e2e/log-redaction.test.ts',
  'test/e2e/line/webhook-flood.test.ts',
  'test/e2e/telegram/poison-message.test.ts',
  'test/src/cli.test.ts',
  'test/src/last-resort.test.ts',
  'test/src/backup/backup-cli.test.ts',
  'test/src/backup/backup-while-writing.test.ts',
  'test/src/knowledge/postgres/knowledge-copy-cli.test.ts',
  'test/src/knowledge/ingest/extract/hostile-documents.test.ts',
];

export default defineConfig({
  test: {
    // Worker processes, not threads: fakes bind loopback ports, SQLite and child processes per worker.
    pool: 'forks',
    // Vitest's default leaves one core idle (one file at a time on 2 cores), though most files wait on fakes or
    // child processes much of the time.
    maxWorkers: Math.max(2, os.availableParallelism()),
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Notes the tests skipped for a missing system program and ends the run with one line naming them.
    globalSetup: ['test/support/global-setup.ts'],
    projects: [
      { extends: true, test: { name: 'process', include: processTests } },
      // A worker keeps its modules from file to file (no fresh module graph per file): importing the SDKs, the DLP
      // rules and the fakes once per worker instead of once per file took the unit files from 404 s to 231 s on 2
      // cores. So a test module keeps no per-file state at module level (a support module's afterAll, a folder it
      // deletes): state goes in hooks of the test file, or lives as long as the process (seeded-store.ts).
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: processTests, isolate: false } },
    ],
  },
});
