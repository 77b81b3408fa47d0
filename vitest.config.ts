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
    // Each test file gets its own process: fakes bind loopback ports and SQLite files per file.
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
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: processTests } },
    ],
  },
});
