import { isPlaceholderPassword } from '../placeholder.js';
import type { CredentialRule } from './rule.js';

// URLs that carry a password in their userinfo (`scheme://user:password@host`): database and broker URLs
// (PostgreSQL, MySQL/MariaDB, MongoDB (+srv), Redis, AMQP, SQL Server, CockroachDB, ClickHouse, Neo4j, also with a
// driver suffix such as `postgresql+psycopg2://` or inside `jdbc:`) and basic-auth web URLs (`https://user:pass@…`,
// also ftp and websocket). Blocked whatever the host — a password for localhost is still a password — unless the
// password is a documentation placeholder or guards nothing (placeholder.ts: `password`, `<password>`,
// `${PASSWORD}`, `****`, `REPLACE_WITH_PASSWORD`, `1111`, …) or is the user name again (`postgres:postgres`).
// A URL with a user name and no password (`https://user@host`) is never blocked.

// The user name has no `:`, so the first `:` after `//` ends it; the password runs to the `@` before the host
// (the match ends there: the log redactor keeps the host).
const databaseUrl =
  /(?<![A-Za-z0-9+.-])(?:postgres(?:ql)?|mysql|mariadb|mongodb|rediss?|amqps?|mssql|sqlserver|cockroachdb|clickhouse|neo4j)(?:\+[a-z0-9]{1,20})?:\/\/([^\s:/?#@"'<>`]{0,128}):([^\s/?#@"'<>`]{1,256})@(?=[A-Za-z0-9[\]._~%-])/gi;
const basicAuthUrl = /(?<![A-Za-z0-9+.-])(?:https?|ftps?|wss?):\/\/([^\s:/?#@"'<>`]{0,128}):([^\s/?#@"'<>`]{1,256})@(?=[A-Za-z0-9[\]._~%-])/gi;

function passwordOf(match: RegExpExecArray): string {
  const raw = match[2] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** A password that guards something: not a placeholder, and not the user name again (a default: `postgres:postgres`). */
function withPassword(match: RegExpExecArray): boolean {
  const password = passwordOf(match);
  return !isPlaceholderPassword(password) && password !== match[1];
}

export const connectionUrlRules: readonly CredentialRule[] = [
  {
    kind: 'database-url',
    literals: ['postgres', 'mysql', 'mariadb', 'mongodb', 'redis', 'amqp', 'mssql', 'sqlserver', 'cockroachdb', 'clickhouse', 'neo4j'],
    pattern: databaseUrl,
    accept: withPassword,
  },
  {
    kind: 'basic-auth-url',
    literals: ['://'],
    pattern: basicAuthUrl,
    accept: withPassword,
  },
];
