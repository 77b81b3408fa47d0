import { chmod } from 'node:fs/promises';
import Database from 'better-sqlite3';
import { describeError } from '../shared/describe-error.js';

// A live database is copied with SQLite's online backup API, never as a file: a file copy of a database and its
// -wal taken while the bot writes can be torn. By default all pages go in one step, inside one read transaction:
// a consistent snapshot that the bot's writes (WAL mode: they do not wait for readers) cannot restart. Smaller
// steps are for tests: a write by another connection between steps makes SQLite restart the copy.

export interface SnapshotOptions {
  /** Pages per backup step; default: all at once. */
  pagesPerStep?: number;
  /** Called between steps (tests write to the source here). */
  onStep?: (progress: { totalPages: number; remainingPages: number }) => void;
}

export interface DatabaseCheck {
  userVersion: number;
  schemaVersion: number;
  integrity: string;
}

const allPages = 0x7fffffff;
const maxIntegrityMessages = 20;

/** Copies the database at `source` to the new file `destination`, then checks the copy. */
export async function snapshotDatabase(source: string, destination: string, options: SnapshotOptions = {}): Promise<DatabaseCheck> {
  // Opened like the stores open it (read-write, never written): a read-only connection would leave empty
  // -wal/-shm files behind in DATA_DIR when the bot is stopped.
  const database = new Database(source, { fileMustExist: true });
  try {
    database.pragma('busy_timeout = 5000');
    const pagesPerStep = Math.max(1, Math.min(allPages, Math.floor(options.pagesPerStep ?? allPages)));
    await database.backup(destination, {
      progress: (progress) => {
        options.onStep?.(progress);
        return pagesPerStep;
      },
    });
  } finally {
    database.close();
  }
  await chmod(destination, 0o600);
  return checkCopy(destination);
}

/**
 * Checks the copy and makes it one self-contained file (rollback journal): a backup must not depend on a -wal
 * beside it. The stores switch it back to WAL when they open it after a restore.
 */
function checkCopy(file: string): DatabaseCheck {
  const copy = new Database(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    return {
      userVersion: Number(copy.pragma('user_version', { simple: true })),
      schemaVersion: Number(copy.pragma('schema_version', { simple: true })),
      integrity: integrityOf(copy),
    };
  } catch (error) {
    // A page SQLite cannot read at all (SQLITE_CORRUPT, SQLITE_NOTADB) is a failed check, not a crash.
    return { userVersion: -1, schemaVersion: -1, integrity: describeError(error).slice(0, 4000) };
  } finally {
    copy.close();
  }
}

/** PRAGMA integrity_check on an open database: 'ok', or what it found (at most 20 messages, 4,000 characters). */
function integrityOf(database: Database.Database): string {
  const rows = database.pragma(`integrity_check(${maxIntegrityMessages})`) as Array<Record<string, unknown>>;
  const messages = rows.map((row) => String(Object.values(row)[0]));
  return messages.length === 0 ? 'no result' : messages.join('; ').slice(0, 4000);
}

/**
 * PRAGMA integrity_check on a database file (a restored copy): 'ok', or what it found, or why it could not be read
 * at all (SQLITE_NOTADB, SQLITE_CORRUPT). Never throws for a damaged file.
 */
export function checkDatabaseFile(file: string): string {
  let database: Database.Database | undefined;
  try {
    database = new Database(file, { fileMustExist: true });
    return integrityOf(database);
  } catch (error) {
    return describeError(error).slice(0, 4000);
  } finally {
    database?.close();
  }
}
