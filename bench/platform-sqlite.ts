import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { spread, type Spread } from './platform-measure.js';

// What one durable commit costs on this disk, with the inbound queue's settings (WAL, synchronous = FULL): the
// Telegram path makes several per message (store, attempt, reply, part sending/sent, finish), the direct path one.

export function sqliteCommitCost(commits = 200): Spread {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'saeng-bench-sqlite-'));
  const database = new Database(path.join(directory, 'commits.db'));
  try {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
    database.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const insert = database.prepare<[string]>('INSERT INTO rows (body) VALUES (?)');
    const times: number[] = [];
    for (let commit = 0; commit < commits; commit++) {
      const started = performance.now();
      insert.run(`row ${commit}`);
      times.push(performance.now() - started);
    }
    return spread(times);
  } finally {
    database.close();
    rmSync(directory, { recursive: true, force: true });
  }
}
