import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claimDataDir, DataDirInUseError, pidFileName, runningBot } from '../../../src/backup/index.js';
import { cleanUp, deadPid, livePid, temporaryFolder, writePidFile } from './backup-fixtures.js';

afterEach(cleanUp);

function dataDir(): string {
  const folder = path.join(temporaryFolder(), 'data');
  mkdirSync(folder);
  return folder;
}

describe('the DATA_DIR lock (saeng.pid)', () => {
  it('claims with this pid and a start time, refuses a second claim, and releases only once', () => {
    const folder = dataDir();
    const release = claimDataDir(folder, new Date('2026-03-01T09:00:00Z'));
    const written: unknown = JSON.parse(readFileSync(path.join(folder, pidFileName), 'utf8'));
    expect(written).toMatchObject({ pid: process.pid, startedAt: '2026-03-01T09:00:00.000Z' });
    expect(runningBot(folder)).toMatchObject({ pid: process.pid });
    expect(() => claimDataDir(folder)).toThrow(DataDirInUseError);
    release();
    expect(existsSync(path.join(folder, pidFileName))).toBe(false);
    expect(runningBot(folder)).toBeUndefined();
    release(); // idempotent (a shutdown and an 'exit' handler may both call it)
    claimDataDir(folder)();
  });

  it('says a live process holds DATA_DIR, naming its pid, and refuses to claim it', async () => {
    const folder = dataDir();
    const pid = await livePid();
    writePidFile(folder, pid);
    expect(runningBot(folder)).toMatchObject({ pid });
    let refused: unknown;
    try {
      claimDataDir(folder);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect((refused as DataDirInUseError).describe('th')).toContain(`pid ${pid}`);
    expect((refused as DataDirInUseError).describe('en')).toContain(path.join(folder, pidFileName));
    expect(JSON.parse(readFileSync(path.join(folder, pidFileName), 'utf8'))).toMatchObject({ pid });
  });

  it('treats a file left by a crashed process as stale, and takes it over', async () => {
    const folder = dataDir();
    writePidFile(folder, await deadPid());
    expect(runningBot(folder)).toBeUndefined();
    const release = claimDataDir(folder);
    expect(runningBot(folder)).toMatchObject({ pid: process.pid });
    release();
  });

  it.skipIf(!existsSync('/proc/sys/kernel/random/boot_id'))('treats a file from before a reboot as stale even when its pid is alive now', async () => {
    const folder = dataDir();
    writePidFile(folder, await livePid(), { bootId: '00000000-0000-0000-0000-000000000000' });
    expect(runningBot(folder)).toBeUndefined();
  });

  it('treats an unreadable file as stale', () => {
    const folder = dataDir();
    writeFileSync(path.join(folder, pidFileName), 'not json');
    expect(runningBot(folder)).toBeUndefined();
    claimDataDir(folder)();
  });

  it('does not remove a newer claim when an old release runs late', async () => {
    const folder = dataDir();
    const release = claimDataDir(folder);
    const pid = await livePid();
    writePidFile(folder, pid); // a later bot took over (say after this process was believed dead)
    release();
    expect(runningBot(folder)).toMatchObject({ pid });
  });
});
