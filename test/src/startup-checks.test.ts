import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataDirProblem, httpPortProblem, startupLanguage } from '../../src/startup-checks.js';

// The checks before anything opens a database or a port: plain words naming the variable and what to do.

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'saeng-startup-'));
});
afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

// Permission denied is tested end to end (test/e2e/startup/), where the bot can run as another user than root.

describe('dataDirProblem', () => {
  it('creates a missing DATA_DIR with its parents and leaves no probe file behind', () => {
    const dataDir = path.join(scratch, 'a', 'b', 'data');
    expect(dataDirProblem(dataDir, 'th')).toBeUndefined();
    expect(existsSync(dataDir)).toBe(true);
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('a file where a parent folder should be: names DATA_DIR and the file, in Thai', () => {
    writeFileSync(path.join(scratch, 'notes.txt'), 'x');
    const dataDir = path.join(scratch, 'notes.txt', 'data');
    const problem = dataDirProblem(dataDir, 'th');
    expect(problem).toBe(`DATA_DIR=${dataDir} ใช้ไม่ได้: ${path.join(scratch, 'notes.txt')} เป็นไฟล์ ไม่ใช่โฟลเดอร์: ตั้ง DATA_DIR เป็นโฟลเดอร์อื่น หรือย้ายไฟล์นั้นออกไป`);
  });

  it('DATA_DIR itself a file (English)', () => {
    const dataDir = path.join(scratch, 'data');
    writeFileSync(dataDir, 'x');
    expect(dataDirProblem(dataDir, 'en')).toContain(`DATA_DIR=${dataDir} cannot be used: ${dataDir} is a file, not a folder`);
  });

  it('a relative DATA_DIR is shown as given and as resolved', () => {
    writeFileSync(path.join(scratch, 'data'), 'x');
    const relative = path.relative(process.cwd(), path.join(scratch, 'data'));
    expect(dataDirProblem(relative, 'en')).toContain(`DATA_DIR=${relative} (${path.join(scratch, 'data')})`);
  });
});

describe('httpPortProblem', () => {
  let blocker: Server;
  beforeEach(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  });
  afterEach(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  it('a port in use: names HTTP_PORT and the port, says to choose another or stop the other program', async () => {
    const port = (blocker.address() as { port: number }).port;
    const second = createServer();
    const error = await new Promise<unknown>((resolve) => second.once('error', resolve).listen(port, '127.0.0.1'));
    expect(httpPortProblem(error, { port, host: '127.0.0.1' }, 'th')).toBe(
      `HTTP_PORT=${port} ใช้ไม่ได้: มีโปรแกรมอื่นใช้พอร์ตนี้อยู่ (address in use): ตั้ง HTTP_PORT เป็นพอร์ตอื่น หรือหยุดโปรแกรมที่ใช้พอร์ตนี้ก่อน`,
    );
    expect(httpPortProblem(error, { port, host: '127.0.0.1' }, 'en')).toContain('choose another HTTP_PORT, or stop the other program');
  });

  it('permission denied, an address the machine does not have, and any other failure, each naming the variables', () => {
    const denied = Object.assign(new Error('listen EACCES'), { code: 'EACCES' });
    expect(httpPortProblem(denied, { port: 80, host: '127.0.0.1' }, 'en')).toContain('HTTP_PORT=80 cannot be used: this user may not open this port');
    const noAddress = Object.assign(new Error('listen EADDRNOTAVAIL'), { code: 'EADDRNOTAVAIL' });
    expect(httpPortProblem(noAddress, { port: 3000, host: '10.9.9.9' }, 'th')).toContain('HTTP_HOST=10.9.9.9 ใช้ไม่ได้');
    const other = Object.assign(new Error('listen EMFILE'), { code: 'EMFILE' });
    expect(httpPortProblem(other, { port: 3000, host: '127.0.0.1' }, 'en')).toBe(
      'the /healthz server did not start on HTTP_HOST=127.0.0.1 HTTP_PORT=3000 (EMFILE): check HTTP_HOST and HTTP_PORT',
    );
  });
});

describe('startupLanguage (before the configuration is known)', () => {
  it('English only when BOT_LANGUAGE is en; Thai otherwise, a bad value included', () => {
    expect(startupLanguage({ BOT_LANGUAGE: ' en ' })).toBe('en');
    expect(startupLanguage({ BOT_LANGUAGE: 'fr' })).toBe('th');
    expect(startupLanguage({})).toBe('th');
  });
});
