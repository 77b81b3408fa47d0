import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { vi } from 'vitest';

// Runs a bench's `main(['--quick'])` in the test process and returns the one JSON document it printed on stdout
// (what `npm run bench -- <name> --quick` shows). Tests assert its shape, never a timing.

export async function runQuick(main: (argv: string[]) => Promise<void>): Promise<unknown> {
  let written = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written += chunk.toString();
    return true;
  });
  try {
    await main(['--quick']);
  } finally {
    spy.mockRestore();
  }
  return JSON.parse(written) as unknown;
}

/**
 * The system programs a bench needs that are not installed (PostgreSQL's initdb as test/support/postgres-server.ts
 * finds it, redis-server on PATH). Its test skips without them on a developer's machine; under CI=true (.ci/run
 * installs them) none may be missing.
 */
export function missingPrograms(needed: readonly ('postgresql' | 'redis-server')[]): string[] {
  const root = '/usr/lib/postgresql';
  const installed = {
    postgresql: () => existsSync(root) && readdirSync(root).some((version) => existsSync(path.join(root, version, 'bin', 'initdb'))),
    'redis-server': () => (process.env.PATH ?? '').split(path.delimiter).some((folder) => folder !== '' && existsSync(path.join(folder, 'redis-server'))),
  };
  const missing = needed.filter((program) => !installed[program]());
  if (missing.length > 0 && process.env.CI === 'true') throw new Error(`CI: ${missing.join(', ')} must be installed`);
  return missing;
}
