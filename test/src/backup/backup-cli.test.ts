import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStorage } from '../../../src/storage/storage.js';
import { cleanUp, livePid, temporaryFolder, writePidFile } from './backup-fixtures.js';

// `npm run backup` / `npm run restore` / list as the people running Saeng use them: a real child process, DATA_DIR
// and BOT_LANGUAGE from its environment.

const root = path.resolve(import.meta.dirname, '../../..');

afterEach(cleanUp);

function backupCli(args: string[], environment: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/backup-cli.ts', ...args],
      { cwd: root, env: { PATH: process.env.PATH ?? '', BOT_TIMEZONE: 'Asia/Bangkok', ...environment }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function dataDir(): string {
  const folder = path.join(temporaryFolder(), 'data');
  const storage = openStorage(folder);
  storage.close();
  return folder;
}

describe('backup-cli', () => {
  it('backs up, lists and restores, in Thai by default', async () => {
    const data = dataDir();
    const backups = temporaryFolder();
    const made = await backupCli(['backup', backups], { DATA_DIR: data });
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('สำรองข้อมูลเสร็จแล้ว');
    const [name] = readdirSync(backups);
    expect(name).toMatch(/^saeng-backup-\d{8}-\d{6}$/);
    expect(made.stdout).toContain(`npm run restore -- ${path.join(backups, name ?? '')}`);

    const listed = await backupCli(['list', backups], { DATA_DIR: data });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(name);

    // The folder of backups instead of one backup: refused, pointing at the newest.
    const wrongFolder = await backupCli(['restore', backups], { DATA_DIR: data });
    expect(wrongFolder.code).toBe(1);
    expect(wrongFolder.stderr).toContain('manifest.json');
    expect(wrongFolder.stderr).toContain(`npm run restore -- ${path.join(backups, name ?? '')}`);

    const restored = await backupCli(['restore', path.join(backups, name ?? '')], { DATA_DIR: data });
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('นำข้อมูลสำรองกลับมาแล้ว');
    expect(readdirSync(path.dirname(data)).filter((entry) => entry.startsWith('data.before-restore-'))).toHaveLength(1);
    expect(existsSync(path.join(data, 'state.db'))).toBe(true);
  });

  it('refuses to restore while the bot runs, in English when BOT_LANGUAGE=en, exit 1', async () => {
    const data = dataDir();
    const backups = temporaryFolder();
    expect((await backupCli(['backup', backups], { DATA_DIR: data, BOT_LANGUAGE: 'en' })).code).toBe(0);
    const pid = await livePid();
    writePidFile(data, pid);
    const refused = await backupCli(['restore', path.join(backups, readdirSync(backups)[0] ?? '')], { DATA_DIR: data, BOT_LANGUAGE: 'en' });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`restore failed: Saeng is still running on DATA_DIR=${data} (pid ${pid}`);
    expect(readdirSync(path.dirname(data))).toEqual(['data']);
  });

  it.each([
    [[], 'ไม่ได้ระบุคำสั่ง'],
    [['backup'], 'ไม่ได้ระบุโฟลเดอร์'],
    [['copy', '/tmp'], 'ไม่รู้จักคำสั่ง copy'],
    [['backup', '/tmp/a', '/tmp/b'], 'ระบุได้โฟลเดอร์เดียว'],
  ])('exits 2 with the usage for %j', async (args, problem) => {
    const result = await backupCli(args, { DATA_DIR: dataDir() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(problem);
    expect(result.stderr).toContain('npm run backup -- <โฟลเดอร์>');
  });

  it('exits 1 naming DATA_DIR when there is nothing to back up', async () => {
    const missing = path.join(temporaryFolder(), 'no-data');
    const result = await backupCli(['backup', temporaryFolder()], { DATA_DIR: missing });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`สำรองข้อมูลไม่สำเร็จ: ไม่พบ DATA_DIR=${missing}`);
  });
});
