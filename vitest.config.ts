import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Notes the tests skipped for a missing system program and ends the run with one line naming them.
    globalSetup: ['test/support/global-setup.ts'],
    // Each test file gets its own process: fakes bind loopback ports and SQLite files per file.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
