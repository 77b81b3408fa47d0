import pg from 'pg';
import { say, type Localized } from '../../shared/i18n.js';
import { isRecord } from '../../shared/is-record.js';
import type { Language } from '../../shared/types.js';

// Why PostgreSQL cannot be used, in plain words: the server named by DATABASE_URL (never its password) and what
// failed — nothing answers, the password or user is refused, the database does not exist, or no answer in time.

/** DATABASE_URL without user password (kept: the user name helps, the password never appears). */
export function databaseAddress(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL';
  }
}

const texts = {
  refused: {
    th: 'DATABASE_URL={address}: ไม่มี PostgreSQL ตอบที่ที่อยู่นี้ (ECONNREFUSED): เปิด PostgreSQL หรือแก้โฮสต์และพอร์ตใน DATABASE_URL',
    en: 'DATABASE_URL={address}: nothing answers there (ECONNREFUSED): start PostgreSQL or fix the host and port in DATABASE_URL',
  },
  hostUnknown: {
    th: 'DATABASE_URL={address}: ไม่รู้จักโฮสต์นี้ ({code}): แก้ชื่อโฮสต์ใน DATABASE_URL',
    en: 'DATABASE_URL={address}: unknown host ({code}): fix the host name in DATABASE_URL',
  },
  authentication: {
    th: 'DATABASE_URL={address}: PostgreSQL ไม่ยอมรับผู้ใช้หรือรหัสผ่าน ({detail}): แก้ผู้ใช้และรหัสผ่านใน DATABASE_URL',
    en: 'DATABASE_URL={address}: PostgreSQL refused the user or password ({detail}): fix the user and password in DATABASE_URL',
  },
  databaseMissing: {
    th: 'DATABASE_URL={address}: ไม่มีฐานข้อมูลนี้ใน PostgreSQL ({detail}): สร้างด้วย createdb หรือแก้ชื่อฐานข้อมูลใน DATABASE_URL',
    en: 'DATABASE_URL={address}: that database does not exist ({detail}): create it with createdb or fix its name in DATABASE_URL',
  },
  timeout: {
    th: 'DATABASE_URL={address}: PostgreSQL ไม่ตอบภายใน {seconds} วินาที: ตรวจว่าเครือข่ายและเซิร์ฟเวอร์ใช้งานได้',
    en: 'DATABASE_URL={address}: no answer from PostgreSQL within {seconds} s: check the network and the server',
  },
  other: {
    th: 'DATABASE_URL={address}: ใช้ PostgreSQL ไม่ได้: {detail}',
    en: 'DATABASE_URL={address}: PostgreSQL cannot be used: {detail}',
  },
} satisfies Record<string, Localized>;

function fieldOf(error: unknown, name: 'code' | 'message'): string | undefined {
  const value = isRecord(error) ? error[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** A failure to connect, migrate or answer, described with the address only; `describe(language)` for people. */
export class PostgresConnectionError extends Error {
  constructor(
    private readonly text: Localized,
    private readonly values: Record<string, string | number>,
  ) {
    super(say(text, 'en', values));
    this.name = 'PostgresConnectionError';
  }

  describe(language: Language): string {
    return say(this.text, language, this.values);
  }
}

export function connectionProblem(url: string, error: unknown, timeoutMs?: number): PostgresConnectionError {
  const address = databaseAddress(url);
  // AggregateError (IPv4 and IPv6 both refused) carries its code on the error itself in Node 20.
  const code = fieldOf(error, 'code');
  const detail = (fieldOf(error, 'message') ?? String(error)).split(url).join(address);
  if (code === 'ECONNREFUSED') return new PostgresConnectionError(texts.refused, { address });
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new PostgresConnectionError(texts.hostUnknown, { address, code });
  if (code === '28P01' || code === '28000') return new PostgresConnectionError(texts.authentication, { address, detail });
  if (code === '3D000') return new PostgresConnectionError(texts.databaseMissing, { address, detail });
  if (timeoutMs !== undefined && /timeout/i.test(detail.slice(0, 500))) {
    return new PostgresConnectionError(texts.timeout, { address, seconds: Math.round(timeoutMs / 1000) });
  }
  return new PostgresConnectionError(texts.other, { address, detail });
}

/** Start-up check: connect, `SELECT 1`, within `timeoutMs`; rejects with a PostgresConnectionError. */
export async function checkPostgres(url: string, timeoutMs = 5000): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => undefined); // a connection lost after the check is of no interest here
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    throw connectionProblem(url, error, timeoutMs);
  } finally {
    await client.end().catch(() => undefined);
  }
}
