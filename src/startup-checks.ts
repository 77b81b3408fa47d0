import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from './config.js';
import { say, type Localized } from './shared/i18n.js';
import type { Language } from './shared/types.js';
import { errorCode } from './shared/error-code.js';
import { DamagedDatabaseError } from './storage/damaged-database.js';

// What is checked before anything starts (npm start, npm run chat, npm run cli): the configuration and DATA_DIR.
// A problem stops the process with exit code 1 and a message in plain words naming the variable and what to do,
// instead of a stack trace from deep inside (better-sqlite3, zod). HTTP_PORT is checked where it is bound
// (src/service.ts, with httpPortProblem below) and the model server by src/startup-checks-model.ts; a damaged SQLite
// file in DATA_DIR is found when the stores open (src/storage/damaged-database.ts) and stops the start the same way.

/** The language of a message written before the configuration is known: English only when asked for. */
export function startupLanguage(environment: NodeJS.ProcessEnv = process.env): Language {
  return environment.BOT_LANGUAGE?.trim() === 'en' ? 'en' : 'th';
}

/** Writes the message to stderr and exits with 1 (start-up problems only). */
export function stopAtStart(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** The app `open` builds, or exit 1 with the plain line when a SQLite file in DATA_DIR is damaged. */
export function openAppOrExit<Opened>(open: () => Opened, language: Language): Opened {
  try {
    return open();
  } catch (error) {
    if (error instanceof DamagedDatabaseError) stopAtStart(error.describe(language));
    throw error;
  }
}

/** The configuration, or exit 1 with one plain line per bad variable. */
export function loadConfigOrExit(environment: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) stopAtStart(error.describe(startupLanguage(environment)));
    throw error;
  }
}

const dataDirTexts = {
  denied: {
    th: 'DATA_DIR={dir} เขียนไม่ได้ (permission denied): ตั้ง DATA_DIR เป็นโฟลเดอร์ที่ผู้ใช้นี้เขียนได้ หรือแก้สิทธิ์ด้วย chown',
    en: 'DATA_DIR={dir} is not writable (permission denied): set DATA_DIR to a folder this user can write to, or fix its owner with chown',
  },
  notFolder: {
    th: 'DATA_DIR={dir} ใช้ไม่ได้: {blocker} เป็นไฟล์ ไม่ใช่โฟลเดอร์: ตั้ง DATA_DIR เป็นโฟลเดอร์อื่น หรือย้ายไฟล์นั้นออกไป',
    en: 'DATA_DIR={dir} cannot be used: {blocker} is a file, not a folder: set DATA_DIR to another folder, or move that file away',
  },
  readOnly: {
    th: 'DATA_DIR={dir} เขียนไม่ได้ เพราะอยู่บนดิสก์ที่อ่านได้อย่างเดียว (read-only): ตั้ง DATA_DIR เป็นโฟลเดอร์บนดิสก์ที่เขียนได้',
    en: 'DATA_DIR={dir} is on a read-only file system: set DATA_DIR to a folder on a writable disk',
  },
  full: {
    th: 'DATA_DIR={dir} เขียนไม่ได้ เพราะดิสก์เต็ม: ลบไฟล์ที่ไม่ใช้ หรือตั้ง DATA_DIR เป็นโฟลเดอร์บนดิสก์อื่น',
    en: 'DATA_DIR={dir} cannot be written: the disk is full: free some space, or set DATA_DIR to a folder on another disk',
  },
  other: {
    th: 'DATA_DIR={dir} ใช้ไม่ได้ ({code}): ตั้ง DATA_DIR เป็นโฟลเดอร์ที่ผู้ใช้นี้เขียนได้',
    en: 'DATA_DIR={dir} cannot be used ({code}): set DATA_DIR to a folder this user can write to',
  },
} satisfies Record<string, Localized>;

const dataDirTextFor: Partial<Record<string, Localized>> = {
  EACCES: dataDirTexts.denied,
  EPERM: dataDirTexts.denied,
  ENOTDIR: dataDirTexts.notFolder,
  EEXIST: dataDirTexts.notFolder,
  EROFS: dataDirTexts.readOnly,
  ENOSPC: dataDirTexts.full,
};

/**
 * Creates DATA_DIR (with its parents) and writes and removes a probe file in it: the stores open their files there
 * next. Returns what is wrong, in the language, or undefined when it is usable.
 */
export function dataDirProblem(dataDir: string, language: Language): string | undefined {
  const resolved = path.resolve(dataDir);
  const dir = resolved === dataDir ? dataDir : `${dataDir} (${resolved})`;
  const probe = path.join(resolved, `.saeng-write-check-${process.pid}`);
  try {
    mkdirSync(resolved, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe, { force: true });
    return undefined;
  } catch (error) {
    const code = errorCode(error) ?? String(error);
    const text = dataDirTextFor[code] ?? dataDirTexts.other;
    return say(text, language, { dir, code, blocker: text === dataDirTexts.notFolder ? (firstFileOnPath(resolved) ?? resolved) : '' });
  }
}

/** Exits 1 with the plain message when DATA_DIR cannot be used. */
export function ensureDataDirOrExit(config: Config): void {
  const problem = dataDirProblem(config.DATA_DIR, config.BOT_LANGUAGE);
  if (problem) stopAtStart(problem);
}

/** The file that stands where a folder should be: DATA_DIR itself or one of its parents. */
function firstFileOnPath(resolved: string): string | undefined {
  const parts: string[] = [];
  for (let current = resolved; ; current = path.dirname(current)) {
    parts.unshift(current);
    if (path.dirname(current) === current) break;
  }
  for (const candidate of parts) {
    try {
      if (!statSync(candidate).isDirectory()) return candidate;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const portTexts = {
  busy: {
    th: 'HTTP_PORT={port} ใช้ไม่ได้: มีโปรแกรมอื่นใช้พอร์ตนี้อยู่ (address in use): ตั้ง HTTP_PORT เป็นพอร์ตอื่น หรือหยุดโปรแกรมที่ใช้พอร์ตนี้ก่อน',
    en: 'HTTP_PORT={port} cannot be used: another program is using this port (address in use): choose another HTTP_PORT, or stop the other program first',
  },
  denied: {
    th: 'HTTP_PORT={port} ใช้ไม่ได้: ผู้ใช้นี้ไม่มีสิทธิ์เปิดพอร์ตนี้ (permission denied): ตั้ง HTTP_PORT เป็นพอร์ตตั้งแต่ 1024 ขึ้นไป เช่น 3000',
    en: 'HTTP_PORT={port} cannot be used: this user may not open this port (permission denied): choose an HTTP_PORT of 1024 or above, e.g. 3000',
  },
  badHost: {
    th: 'HTTP_HOST={host} ใช้ไม่ได้: เครื่องนี้ไม่มีที่อยู่นี้: ตั้ง HTTP_HOST เป็น 127.0.0.1 หรือที่อยู่ของเครื่องนี้',
    en: 'HTTP_HOST={host} cannot be used: this machine has no such address: set HTTP_HOST to 127.0.0.1 or an address of this machine',
  },
  other: {
    th: 'เปิดเซิร์ฟเวอร์ /healthz ที่ HTTP_HOST={host} HTTP_PORT={port} ไม่ได้ ({code}): ตรวจค่า HTTP_HOST และ HTTP_PORT',
    en: 'the /healthz server did not start on HTTP_HOST={host} HTTP_PORT={port} ({code}): check HTTP_HOST and HTTP_PORT',
  },
} satisfies Record<string, Localized>;

const portTextFor: Partial<Record<string, Localized>> = {
  EADDRINUSE: portTexts.busy,
  EACCES: portTexts.denied,
  EPERM: portTexts.denied,
  EADDRNOTAVAIL: portTexts.badHost,
  ENOTFOUND: portTexts.badHost,
  EAI_AGAIN: portTexts.badHost,
};

/** What stopped the health/metrics server from listening, in plain words naming the variable. */
export function httpPortProblem(error: unknown, where: { port: number; host: string }, language: Language): string {
  const code = errorCode(error) ?? String(error);
  return say(portTextFor[code] ?? portTexts.other, language, { port: where.port, host: where.host, code });
}
