import type Database from 'better-sqlite3';
import { usageKeepDays, type UsageCounts, type UsageEntry, type UsageRow, type UsageStore } from './usage-store.js';

// /usage's counters in DATA_DIR/state.db (one process): one row per (day, space, user), added to with an upsert.
// Days older than the window are deleted when the day of the writes changes, so the table stays about a month long.

interface Row {
  space_key: string;
  user_key: string;
  user_name: string;
  turns: number;
  model_ms: number;
  prompt_tokens: number;
  generated_tokens: number;
  searches: number;
  ocr_pages: number;
}

export class SqliteUsageStore implements UsageStore {
  private readonly statements;
  private prunedFor: string | undefined;

  constructor(database: Database.Database) {
    database.exec(`CREATE TABLE IF NOT EXISTS usage (
      day TEXT NOT NULL, space_key TEXT NOT NULL, user_key TEXT NOT NULL, user_name TEXT NOT NULL,
      turns INTEGER NOT NULL, model_ms INTEGER NOT NULL, prompt_tokens INTEGER NOT NULL, generated_tokens INTEGER NOT NULL,
      searches INTEGER NOT NULL, ocr_pages INTEGER NOT NULL,
      PRIMARY KEY (day, space_key, user_key)) WITHOUT ROWID`);
    this.statements = {
      add: database.prepare<[string, string, string, string, number, number, number, number, number, number]>(
        `INSERT INTO usage VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (day, space_key, user_key) DO UPDATE SET user_name = excluded.user_name,
           turns = turns + excluded.turns, model_ms = model_ms + excluded.model_ms,
           prompt_tokens = prompt_tokens + excluded.prompt_tokens, generated_tokens = generated_tokens + excluded.generated_tokens,
           searches = searches + excluded.searches, ocr_pages = ocr_pages + excluded.ocr_pages`,
      ),
      prune: database.prepare<[string]>('DELETE FROM usage WHERE day < ?'),
      // The newest name of each user comes from their newest day (max(day) picks the row's bare columns in SQLite).
      totals: database.prepare<[string, string, string | null, string | null], Row & { newest: string }>(
        `SELECT space_key, user_key, user_name, max(day) AS newest, sum(turns) AS turns, sum(model_ms) AS model_ms,
           sum(prompt_tokens) AS prompt_tokens, sum(generated_tokens) AS generated_tokens, sum(searches) AS searches,
           sum(ocr_pages) AS ocr_pages
         FROM usage WHERE day >= ? AND day <= ? AND (? IS NULL OR space_key = ?)
         GROUP BY space_key, user_key`,
      ),
    };
  }

  // Async so that a failing statement (a closed or full database) rejects instead of throwing into the caller.
  async add(entry: UsageEntry): Promise<void> {
    const { counts } = entry;
    this.statements.add.run(
      entry.day,
      entry.spaceKey,
      entry.userKey,
      entry.userName,
      counts.turns,
      counts.modelMs,
      counts.promptTokens,
      counts.generatedTokens,
      counts.searches,
      counts.ocrPages,
    );
    if (this.prunedFor !== entry.day) {
      this.prunedFor = entry.day;
      this.statements.prune.run(oldestKept(entry.day));
    }
  }

  async totals(query: { days: readonly string[]; spaceKey?: string }): Promise<UsageRow[]> {
    if (query.days.length === 0) return [];
    const sorted = [...query.days].sort();
    const space = query.spaceKey ?? null;
    const rows = this.statements.totals.all(sorted[0] ?? '', sorted[sorted.length - 1] ?? '', space, space);
    return rows.map((row) => ({ spaceKey: row.space_key, userKey: row.user_key, userName: row.user_name, counts: countsOf(row) }));
  }
}

function countsOf(row: Row): UsageCounts {
  return {
    turns: row.turns,
    modelMs: row.model_ms,
    promptTokens: row.prompt_tokens,
    generatedTokens: row.generated_tokens,
    searches: row.searches,
    ocrPages: row.ocr_pages,
  };
}

/** The first day still kept when `today` is the newest: `usageKeepDays` days in all. */
export function oldestKept(today: string): string {
  return new Date(new Date(`${today}T12:00:00Z`).getTime() - (usageKeepDays - 1) * 86_400_000).toISOString().slice(0, 10);
}
