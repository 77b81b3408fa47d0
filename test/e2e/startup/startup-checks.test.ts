import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { killAllSaeng, startSaeng } from './saeng-process.js';

// A fresh machine's mistakes, as `npm start` (no terminal, as under pm2) meets them: each stops with exit code 1 and
// one plain Thai line naming the variable, or (no model server) warns and keeps running until told to stop.

let workDir: string;
beforeEach(() => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-startup-e2e-'));
});
afterEach(async () => {
  await killAllSaeng();
  rmSync(workDir, { recursive: true, force: true });
});

// Port 9 (discard) has nothing listening on loopback: a model server that is not running.
const noModelServer = 'http://127.0.0.1:9/v1';

function environment(extra: Record<string, string>): Record<string, string> {
  return { MODEL_BASE_URL: noModelServer, DATA_DIR: path.join(workDir, 'data'), HTTP_PORT: '0', LOG_LEVEL: 'info', ...extra };
}

function expectNoStackTrace(stderr: string): void {
  expect(stderr).not.toMatch(/^\s+at /m);
}

describe('npm start on a fresh machine', () => {
  it('DATA_DIR under a file (mkdir cannot make it): exit 1, one Thai line naming DATA_DIR, no stack trace', async () => {
    writeFileSync(path.join(workDir, 'notes.txt'), 'x');
    const dataDir = path.join(workDir, 'notes.txt', 'data');
    const saeng = startSaeng(environment({ DATA_DIR: dataDir }), workDir);
    expect(await saeng.exited).toBe(1);
    expect(saeng.stderr()).toBe(
      `DATA_DIR=${dataDir} ใช้ไม่ได้: ${path.join(workDir, 'notes.txt')} เป็นไฟล์ ไม่ใช่โฟลเดอร์: ตั้ง DATA_DIR เป็นโฟลเดอร์อื่น หรือย้ายไฟล์นั้นออกไป\n`,
    );
  });

  it('DATA_DIR in a folder this user cannot write to: exit 1, Thai, permission denied', async () => {
    const parent = path.join(workDir, 'locked');
    mkdirSync(parent);
    chmodSync(parent, 0o500);
    // As root (CI) the bot runs without the capability to write through mode bits, so 0500 stops it too.
    const saeng = startSaeng(environment({ DATA_DIR: path.join(parent, 'data') }), workDir, { obeyPermissions: true });
    expect(await saeng.exited).toBe(1);
    expect(saeng.stderr()).toBe(`DATA_DIR=${path.join(parent, 'data')} เขียนไม่ได้ (permission denied): ตั้ง DATA_DIR เป็นโฟลเดอร์ที่ผู้ใช้นี้เขียนได้ หรือแก้สิทธิ์ด้วย chown\n`);
    chmodSync(parent, 0o700);
  });

  it('MODEL_TIMEOUT_MS=abc: exit 1, plain Thai naming the variable and its value, no zod wording', async () => {
    const saeng = startSaeng(environment({ MODEL_TIMEOUT_MS: 'abc' }), workDir);
    expect(await saeng.exited).toBe(1);
    expect(saeng.stderr()).toContain('MODEL_TIMEOUT_MS: ต้องเป็นจำนวนเต็มตั้งแต่ 1 ถึง 3600000 (ตอนนี้ตั้งไว้เป็น "abc")');
    expect(saeng.stderr()).not.toMatch(/expected number|received|Invalid input/);
    expectNoStackTrace(saeng.stderr());
  });

  it('a bad variable with BOT_LANGUAGE=en: the same in English', async () => {
    const saeng = startSaeng(environment({ BOT_LANGUAGE: 'en', HTTP_PORT: 'eighty' }), workDir);
    expect(await saeng.exited).toBe(1);
    expect(saeng.stderr()).toContain('HTTP_PORT: expected a whole number from 0 to 65535 (got "eighty")');
  });

  describe('HTTP_PORT already in use', () => {
    let blocker: Server;
    beforeEach(async () => {
      blocker = createServer();
      await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    });
    afterEach(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

    it('headless: an error on stderr naming HTTP_PORT and the port, exit 1 (not 0, not a restart loop)', async () => {
      const port = (blocker.address() as { port: number }).port;
      const saeng = startSaeng(environment({ HTTP_PORT: String(port) }), workDir);
      expect(await saeng.exited).toBe(1);
      const line = JSON.parse(await saeng.line('stderr', 'HTTP_PORT')) as { level: number; msg: string; variable: string; port: number };
      expect(line).toMatchObject({ level: 50, variable: 'HTTP_PORT', port });
      expect(line.msg).toBe(`HTTP_PORT=${port} ใช้ไม่ได้: มีโปรแกรมอื่นใช้พอร์ตนี้อยู่ (address in use): ตั้ง HTTP_PORT เป็นพอร์ตอื่น หรือหยุดโปรแกรมที่ใช้พอร์ตนี้ก่อน`);
    });
  });

  it('no model server: a warning naming MODEL_BASE_URL, the state at start on stdout, /healthz 200 and /readyz 503, runs until SIGTERM (exit 0)', async () => {
    const saeng = startSaeng(environment({}), workDir);
    const warning = JSON.parse(await saeng.line('stderr', 'MODEL_BASE_URL=')) as { level: number; msg: string };
    expect(warning.level).toBe(40);
    expect(warning.msg).toContain(`ติดต่อเซิร์ฟเวอร์โมเดลที่ MODEL_BASE_URL=${noModelServer} ไม่ได้`);
    expect(JSON.parse(await saeng.line('stdout', '"modelServer"'))).toMatchObject({ level: 30, modelServer: 'unreachable', baseUrl: noModelServer });
    const listening = JSON.parse(await saeng.line('stdout', '"http server listening"')) as { port: number };
    await saeng.line('stdout', 'serving /healthz and /metrics only');

    // Alive (/healthz 200) but not ready (/readyz 503) while the model server does not answer.
    const health = await fetch(`http://127.0.0.1:${listening.port}/healthz`);
    expect([health.status, await health.json()]).toMatchObject([200, { status: 'ok' }]);
    const ready = await fetch(`http://127.0.0.1:${listening.port}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'not-ready', modelServer: { reachable: false, server: 'unreachable' } });

    saeng.signal('SIGTERM');
    expect(await saeng.exited).toBe(0);
    // The split: info lines only on stdout, warnings and errors only on stderr.
    const levels = (text: string) =>
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { level: number }).level);
    expect(levels(saeng.stdout()).every((level) => level < 40)).toBe(true);
    expect(levels(saeng.stderr()).every((level) => level >= 40)).toBe(true);
    expect(levels(saeng.stdout())).not.toHaveLength(0);
  });

  it('a second bot on the same DATA_DIR: exit 1 naming the running one; the first keeps running', async () => {
    const first = startSaeng(environment({}), workDir);
    await first.line('stdout', 'serving /healthz and /metrics only');
    const second = startSaeng(environment({}), workDir);
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`Saeng ยังทำงานอยู่กับ DATA_DIR=${path.join(workDir, 'data')}`);
    expectNoStackTrace(second.stderr());
    first.signal('SIGTERM');
    expect(await first.exited).toBe(0);
    // Released on exit: the next start takes DATA_DIR without complaint.
    const third = startSaeng(environment({}), workDir);
    await third.line('stdout', 'serving /healthz and /metrics only');
    third.signal('SIGTERM');
    expect(await third.exited).toBe(0);
  });
});
