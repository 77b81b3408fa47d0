import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConversationHistory } from '../../../agent/history.js';
import { openStorage } from '../../../src/storage/storage.js';
import { killAllSaeng, startSaeng } from './saeng-process.js';

// A damaged SQLite file in DATA_DIR, as `npm start` meets it: exit 1 and one line naming the file and the way out
// (a backup, or the file set aside and what starting empty loses), never a better-sqlite3 stack. The file is left as
// it was, for whoever wants to rescue what is in it.

let workDir: string;
let dataDir: string;
beforeEach(() => {
  workDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-damaged-db-'));
  dataDir = path.join(workDir, 'data');
  mkdirSync(dataDir);
});
afterEach(async () => {
  await killAllSaeng();
  rmSync(workDir, { recursive: true, force: true });
});

const noModelServer = 'http://127.0.0.1:9/v1';

function environment(extra: Record<string, string> = {}): Record<string, string> {
  return { MODEL_BASE_URL: noModelServer, DATA_DIR: dataDir, HTTP_PORT: '0', LOG_LEVEL: 'info', ...extra };
}

/** 8 KiB of a repeated byte: not SQLite's header, so "file is not a database". */
const garbage = Buffer.alloc(8192, 0x5a);

const lost = {
  'state.db': 'ประวัติการสนทนา แคช ภาพและข้อความกลุ่มล่าสุด และบันทึกข้อความที่ส่งใน LINE',
  'inbound.db': 'ข้อความที่ยังรอคำตอบ และรายการกันข้อความซ้ำ (ข้อความล่าสุดที่แพลตฟอร์มส่งซ้ำอาจถูกตอบอีกครั้ง)',
  'knowledge.db': 'คลังความรู้ทั้งหมด เอกสาร และการผูกกับห้องแชต',
};

describe('npm start with a damaged database in DATA_DIR', { timeout: 90_000 }, () => {
  for (const [name, loses] of Object.entries(lost)) {
    it(`garbage in ${name}: exit 1, one Thai line naming the file, the restore and what starting empty loses`, async () => {
      const file = path.join(dataDir, name);
      writeFileSync(file, garbage);
      const saeng = startSaeng(environment(), workDir);
      expect(await saeng.exited).toBe(1);
      expect(saeng.stderr()).toBe(
        `${file} เสียหาย อ่านไม่ได้ (file is not a database): กู้คืนจากข้อมูลสำรองด้วย npm run restore -- <โฟลเดอร์ข้อมูลสำรอง> หรือย้าย ${file} พร้อมไฟล์ -wal และ -shm ของมัน (ถ้ามี) ไปไว้ที่อื่นแล้วเริ่มใหม่แบบว่าง ซึ่งจะเสีย${loses}\n`,
      );
      expect(readFileSync(file)).toEqual(garbage);
    });
  }

  it('a valid header over a damaged table page (quick_check finds it), in English with BOT_LANGUAGE=en', async () => {
    const file = path.join(dataDir, 'state.db');
    const storage = openStorage(dataDir);
    const history = new ConversationHistory(storage.history);
    // Enough rows for the table's root to be an interior page, whose cell pointers are then overwritten.
    for (let turn = 0; turn < 200; turn++) await history.append(`telegram:${turn}`, { question: `q${turn}`.repeat(20), answer: `a${turn}`.repeat(20) });
    storage.close();
    const database = new Database(file);
    const rootPage = Number(database.prepare(`SELECT rootpage FROM sqlite_master WHERE name = 'keyv'`).pluck().get());
    const pageSize = Number(database.pragma('page_size', { simple: true }));
    database.close();
    const bytes = readFileSync(file);
    bytes.fill(0xff, (rootPage - 1) * pageSize + 12, (rootPage - 1) * pageSize + 40);
    writeFileSync(file, bytes);

    const saeng = startSaeng(environment({ BOT_LANGUAGE: 'en' }), workDir);
    expect(await saeng.exited).toBe(1);
    expect(saeng.stderr().startsWith(`${file} is damaged and cannot be read (quick_check: Tree ${rootPage} page ${rootPage} cell `)).toBe(true);
    expect(saeng.stderr()).toContain(
      `restore a backup with npm run restore -- <backup folder>, or move ${file} and its -wal and -shm files (if any) elsewhere and start empty, which loses the conversation histories, the caches, recent group images and messages, and LINE's record of sent messages\n`,
    );
    expect(saeng.stderr().trim().split('\n')).toHaveLength(1);
  });
});
