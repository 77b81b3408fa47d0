import { describe, expect, it } from 'vitest';
import { skipSummary } from './global-setup.js';

describe('the summary line of tests skipped for a missing program', () => {
  it('names each program once, counts its files once, and the package that runs them', () => {
    const redis = { program: 'redis-server', debianPackage: 'redis-server' };
    const postgres = { program: 'PostgreSQL', debianPackage: 'postgresql' };
    const summary = skipSummary([
      { ...redis, testFile: 'test/a.test.ts' },
      { ...redis, testFile: 'test/b.test.ts' },
      { ...redis, testFile: 'test/b.test.ts' },
      { ...postgres, testFile: 'test/c.test.ts' },
    ]);
    expect(summary).toBe('Skipped, not installed here: redis-server (2 files; apt-get install redis-server), PostgreSQL (1 file; apt-get install postgresql)');
  });

  it('says nothing when nothing was skipped', () => {
    expect(skipSummary([])).toBeUndefined();
  });
});
