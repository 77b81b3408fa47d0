import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describeError } from '../shared/describe-error.js';
import { errorCode } from '../shared/error-code.js';
import { say, type Localized } from '../shared/i18n.js';
import type { Language } from '../shared/types.js';

// A SQLite file in DATA_DIR that cannot be read (a disk error, a file overwritten, a bad copy) must stop the start
// with one line naming the file and the way out — a backup (`npm run restore`) or starting empty, saying what that
// loses — not a better-sqlite3 stack. Each store's file is looked at before the store opens it: the schema is read
// (the header and every table definition) and, for a file up to `quickCheckMaxBytes`, PRAGMA quick_check reads every
// page (about 8 ms per MB on a warm disk); a larger file's damaged page is found by the query that reads it.

/** Files up to this size get PRAGMA quick_check at start (about 0.5 s warm, a few seconds on a busy 2-core box); larger ones only the schema read. */
export const quickCheckMaxBytes = 64 * 1024 * 1024;

const texts = {
  damaged: {
    th: '{file} เสียหาย อ่านไม่ได้ ({reason}): กู้คืนจากข้อมูลสำรองด้วย npm run restore -- <โฟลเดอร์ข้อมูลสำรอง> หรือย้าย {file} พร้อมไฟล์ -wal และ -shm ของมัน (ถ้ามี) ไปไว้ที่อื่นแล้วเริ่มใหม่แบบว่าง ซึ่งจะเสีย{lost}',
    en: '{file} is damaged and cannot be read ({reason}): restore a backup with npm run restore -- <backup folder>, or move {file} and its -wal and -shm files (if any) elsewhere and start empty, which loses {lost}',
  },
} satisfies Record<string, Localized>;

/** What starting without each store's file loses. */
const losses: Record<string, Localized> = {
  'state.db': {
    th: 'ประวัติการสนทนา แคช ภาพและข้อความกลุ่มล่าสุด และบันทึกข้อความที่ส่งใน LINE',
    en: "the conversation histories, the caches, recent group images and messages, and LINE's record of sent messages",
  },
  'inbound.db': {
    th: 'ข้อความที่ยังรอคำตอบ และรายการกันข้อความซ้ำ (ข้อความล่าสุดที่แพลตฟอร์มส่งซ้ำอาจถูกตอบอีกครั้ง)',
    en: 'the messages still waiting for an answer and the dedupe record (a recent message the platform delivers again may be answered twice)',
  },
  'knowledge.db': {
    th: 'คลังความรู้ทั้งหมด เอกสาร และการผูกกับห้องแชต',
    en: 'every knowledge base, its documents and its chat bindings',
  },
};
const otherLoss: Localized = { th: 'ข้อมูลในไฟล์นั้น', en: "that file's data" };

/** SQLite's codes for a file that is not (or no longer) a readable database, or a disk that fails to read it. */
export function isDatabaseDamage(error: unknown): boolean {
  const code = errorCode(error) ?? '';
  if (['SQLITE_CORRUPT', 'SQLITE_NOTADB', 'SQLITE_IOERR'].some((prefix) => code.startsWith(prefix))) return true;
  const message = error instanceof Error ? error.message : '';
  return message.includes('file is not a database') || message.includes('database disk image is malformed');
}

/** A store's file that cannot be read: `describe` is the start-up line. */
export class DamagedDatabaseError extends Error {
  private readonly lost: Localized;

  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    const lost = losses[path.basename(file)] ?? otherLoss;
    super(say(texts.damaged, 'en', { file, reason, lost: lost.en }));
    this.lost = lost;
    this.name = 'DamagedDatabaseError';
  }

  describe(language: Language): string {
    return say(texts.damaged, language, { file: this.file, reason: this.reason, lost: this.lost[language] });
  }
}

/**
 * Looks at `file` (when it exists) and then opens the store with `open`; a damaged file, found by the look or by the
 * store's first queries, throws DamagedDatabaseError. Other errors pass as they are.
 */
export function openCheckedDatabase<Store>(file: string, open: () => Store): Store {
  const problem = databaseProblem(file);
  if (problem) throw new DamagedDatabaseError(file, problem);
  try {
    return open();
  } catch (error) {
    if (isDatabaseDamage(error)) throw new DamagedDatabaseError(file, firstLine(describeError(error)));
    throw error;
  }
}

/** What is wrong with the database file, or undefined when it reads (or does not exist yet). */
export function databaseProblem(file: string): string | undefined {
  if (!existsSync(file)) return undefined;
  let database: Database.Database | undefined;
  try {
    // Read-write like the stores (a read-only connection would leave empty -wal/-shm files). Nothing is written but
    // SQLite's own checkpoint when the last connection closes, which the store would do too.
    database = new Database(file, { fileMustExist: true });
    database.pragma('busy_timeout = 5000');
    database.prepare('SELECT count(*) FROM sqlite_schema').get();
    if (statSync(file).size > quickCheckMaxBytes) return undefined;
    const rows = database.pragma('quick_check(3)') as Array<Record<string, unknown>>;
    const found = rows.map((row) => String(Object.values(row)[0])).join('\n');
    if (found === 'ok') return undefined;
    const messages = found
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && line !== '*** in database main ***');
    return firstLine(`quick_check: ${messages.join('; ')}`);
  } catch (error) {
    if (isDatabaseDamage(error)) return firstLine(describeError(error));
    throw error;
  } finally {
    database?.close();
  }
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? text).slice(0, 300);
}

/**
 * Whether the store's file can be read now, through a connection of its own (the store's connection may answer from
 * its page cache): undefined, or `missing` (deleted under the running bot: its writes go to a file no one will open
 * again) or SQLite's reason. The header and the schema only: cheap enough for every /readyz probe.
 */
export function databaseFileProblem(file: string): string | undefined {
  if (!existsSync(file)) return 'missing';
  let database: Database.Database | undefined;
  try {
    database = new Database(file, { fileMustExist: true });
    // better-sqlite3 waits synchronously: a short wait, and a busy file counts as readable (it is in use, not broken).
    database.pragma('busy_timeout = 100');
    database.prepare('SELECT count(*) FROM sqlite_schema').get();
    return undefined;
  } catch (error) {
    if (errorCode(error)?.startsWith('SQLITE_BUSY')) return undefined;
    return firstLine(describeError(error));
  } finally {
    database?.close();
  }
}
