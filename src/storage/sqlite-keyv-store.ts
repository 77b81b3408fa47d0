import { EventEmitter } from 'node:events';
import type Database from 'better-sqlite3';

/**
 * A keyv storage adapter over better-sqlite3 (the project's one SQLite binding). Keyv keeps its own expiry
 * inside the value; the `expires_at` column lets us purge dead rows without reading them.
 */
export class SqliteKeyvStore extends EventEmitter {
  readonly opts = { dialect: 'sqlite' };
  namespace?: string;
  private readonly statements;
  private writesSincePurge = 0;

  constructor(database: Database.Database, table = 'keyv') {
    super();
    database.exec(`CREATE TABLE IF NOT EXISTS ${table} (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER)`);
    database.exec(`CREATE INDEX IF NOT EXISTS ${table}_expires ON ${table}(expires_at)`);
    this.statements = {
      get: database.prepare<[string, number], { value: string }>(`SELECT value FROM ${table} WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)`),
      set: database.prepare<[string, string, number | null]>(
        `INSERT INTO ${table} (key, value, expires_at) VALUES (?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET value = excluded.value, expires_at = excluded.expires_at`,
      ),
      delete: database.prepare<[string]>(`DELETE FROM ${table} WHERE key = ?`),
      clearPrefix: database.prepare<[number, string]>(`DELETE FROM ${table} WHERE substr(key, 1, ?) = ?`),
      clearAll: database.prepare(`DELETE FROM ${table}`),
      purge: database.prepare<[number]>(`DELETE FROM ${table} WHERE expires_at IS NOT NULL AND expires_at <= ?`),
    };
    this.purgeExpired();
  }

  async get<Value>(key: string): Promise<Value | undefined> {
    const row = this.statements.get.get(key, Date.now());
    return row ? (row.value as Value) : undefined;
  }

  async set(key: string, value: unknown, ttl?: number): Promise<boolean> {
    const expiresAt = typeof ttl === 'number' && ttl > 0 ? Date.now() + ttl : null;
    this.statements.set.run(key, typeof value === 'string' ? value : JSON.stringify(value), expiresAt);
    if (++this.writesSincePurge >= 1000) this.purgeExpired();
    return true;
  }

  async delete(key: string): Promise<boolean> {
    return this.statements.delete.run(key).changes > 0;
  }

  async has(key: string): Promise<boolean> {
    return (await this.get(key)) !== undefined;
  }

  async clear(): Promise<void> {
    if (this.namespace) this.statements.clearPrefix.run(this.namespace.length + 1, `${this.namespace}:`);
    else this.statements.clearAll.run();
  }

  purgeExpired(): void {
    this.writesSincePurge = 0;
    this.statements.purge.run(Date.now());
  }
}
