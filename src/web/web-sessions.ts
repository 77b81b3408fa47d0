import { createHash, randomBytes } from 'node:crypto';
import type { Keyv } from 'keyv';
import { isRecord } from '../shared/is-record.js';
import type { Language } from '../shared/types.js';

// The admin web page's log-in (docs/architecture.md, "Admin web page"): `/web` in the chat issues a one-time link,
// opening it spends the token and starts a session kept in a cookie. Both live in the shared store (SQLite state.db,
// or Redis for several processes), under the hash of their secret: a copy of the store opens nothing. A token is
// spent by deleting it, and only the process whose delete removed it gets the session.

/** Everything (ADMIN_IDS, the console's owner), or the spaces where the chat saw the person as an admin. */
export type WebScope = { kind: 'global' } | { kind: 'spaces'; spaceKeys: string[] };

/** Who a link is for, as the chat saw them when they asked. */
export interface WebGrant {
  /** `platform:id`, as ADMIN_IDS names them. */
  adminId: string;
  name: string;
  scope: WebScope;
  language: Language;
}

export interface WebSession extends WebGrant {
  /** The hash that names it in the store and in the session list (never the cookie's value). */
  id: string;
  /** Compared with a form's or an upload's token: a page of another site cannot know it. */
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
  /** The person's log-out generation when it began: `/web logout all` moves it on. */
  generation: number;
}

export interface WebSessionLimits {
  /** How long a `/web` link can be opened. */
  loginTokenMs: number;
  /** A session unused this long is over. */
  idleMs: number;
  /** A session is over this long after it began, used or not. */
  absoluteMs: number;
}

export const defaultWebSessionLimits: WebSessionLimits = { loginTokenMs: 10 * 60_000, idleMs: 30 * 60_000, absoluteMs: 12 * 60 * 60_000 };

/** Sessions listed per person (older ones still work until they expire; `logout all` ends them too). */
const listedSessions = 20;
/** A session's last use is written at most this often: a page view is not a store write. */
const touchEveryMs = 60_000;

const hashOf = (secret: string): string => createHash('sha256').update(secret).digest('base64url');
const newSecret = (): string => randomBytes(32).toString('base64url');
/** A cookie or token value as we make them: 43 base64url characters (anything else is not looked up). */
const isSecretShape = (value: string): boolean => value.length === 43 && /^[\w-]{43}$/.test(value);

export interface SessionSummary {
  id: string;
  createdAt: number;
  lastSeenAt: number;
}

export class WebSessions {
  private readonly now: () => number;

  constructor(
    private readonly store: Keyv,
    readonly limits: WebSessionLimits = defaultWebSessionLimits,
    now?: () => number,
  ) {
    this.now = now ?? Date.now;
  }

  /** A one-time token for `grant`, valid for `limits.loginTokenMs`. */
  async issueLoginToken(grant: WebGrant): Promise<string> {
    const token = newSecret();
    await this.store.set(`login:${hashOf(token)}`, { ...grant, issuedAt: this.now() }, this.limits.loginTokenMs);
    return token;
  }

  /** Spends the token: a new session and its cookie value, or undefined (unknown, expired, or already spent). */
  async spendLoginToken(token: string): Promise<{ session: WebSession; cookie: string } | undefined> {
    if (!isSecretShape(token)) return undefined;
    const key = `login:${hashOf(token)}`;
    const stored: unknown = await this.store.get(key);
    const grant = parseGrant(stored);
    // The store's expiry is its clean-up; the link's own time is checked here, by this clock.
    const issuedAt = isRecord(stored) && typeof stored.issuedAt === 'number' ? stored.issuedAt : -Infinity;
    if (!grant || this.now() - issuedAt >= this.limits.loginTokenMs) return undefined;
    // Whoever deletes it spends it: two processes opening the same link get one session between them.
    if (!(await this.store.delete(key))) return undefined;
    const cookie = newSecret();
    const now = this.now();
    const session: WebSession = {
      ...grant,
      id: hashOf(cookie),
      csrfToken: newSecret(),
      createdAt: now,
      lastSeenAt: now,
      generation: await this.generationOf(grant.adminId),
    };
    await this.store.set(`session:${session.id}`, session, this.limits.absoluteMs);
    const listed = (await this.listedIds(grant.adminId)).filter((id) => id !== session.id);
    await this.store.set(`sessions:${grant.adminId}`, [session.id, ...listed].slice(0, listedSessions), this.limits.absoluteMs);
    return { session, cookie };
  }

  /** The live session a cookie names (its last use noted), or undefined. */
  async sessionOf(cookie: string | undefined): Promise<WebSession | undefined> {
    if (cookie === undefined || !isSecretShape(cookie)) return undefined;
    const session = await this.byId(hashOf(cookie));
    if (!session) return undefined;
    const now = this.now();
    if (now - session.lastSeenAt >= touchEveryMs) {
      const touched = { ...session, lastSeenAt: now };
      await this.store.set(`session:${session.id}`, touched, Math.max(1, session.createdAt + this.limits.absoluteMs - now));
      return touched;
    }
    return session;
  }

  /** Ends the session a cookie names (log-out). */
  async end(cookie: string | undefined): Promise<void> {
    if (cookie !== undefined && isSecretShape(cookie)) await this.store.delete(`session:${hashOf(cookie)}`);
  }

  /** `/web logout all`: every session of the person ends; how many were live. */
  async endAll(adminId: string): Promise<number> {
    const live = await this.list(adminId);
    await this.store.set(`generation:${adminId}`, (await this.generationOf(adminId)) + 1);
    await Promise.all(live.map((session) => this.store.delete(`session:${session.id}`)));
    await this.store.delete(`sessions:${adminId}`);
    return live.length;
  }

  /** The person's live sessions, newest first. */
  async list(adminId: string): Promise<SessionSummary[]> {
    const sessions = await Promise.all((await this.listedIds(adminId)).map((id) => this.byId(id)));
    return sessions.filter((session): session is WebSession => session !== undefined).map(({ id, createdAt, lastSeenAt }) => ({ id, createdAt, lastSeenAt }));
  }

  private async byId(id: string): Promise<WebSession | undefined> {
    const session = parseSession(await this.store.get(`session:${id}`));
    if (!session) return undefined;
    const now = this.now();
    const expired = now - session.lastSeenAt >= this.limits.idleMs || now - session.createdAt >= this.limits.absoluteMs;
    if (expired || session.generation !== (await this.generationOf(session.adminId))) {
      await this.store.delete(`session:${id}`);
      return undefined;
    }
    return session;
  }

  private async generationOf(adminId: string): Promise<number> {
    const stored: unknown = await this.store.get(`generation:${adminId}`);
    return typeof stored === 'number' && Number.isSafeInteger(stored) ? stored : 0;
  }

  private async listedIds(adminId: string): Promise<string[]> {
    const stored: unknown = await this.store.get(`sessions:${adminId}`);
    return Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string').slice(0, listedSessions) : [];
  }
}

// What the store hands back is read as untrusted: a value of the wrong shape is no session.

function parseScope(value: unknown): WebScope | undefined {
  if (!isRecord(value)) return undefined;
  if (value.kind === 'global') return { kind: 'global' };
  if (value.kind !== 'spaces' || !Array.isArray(value.spaceKeys)) return undefined;
  return { kind: 'spaces', spaceKeys: value.spaceKeys.filter((key): key is string => typeof key === 'string') };
}

function parseGrant(value: unknown): WebGrant | undefined {
  if (!isRecord(value)) return undefined;
  const scope = parseScope(value.scope);
  const { adminId, name, language } = value;
  if (!scope || typeof adminId !== 'string' || typeof name !== 'string' || (language !== 'th' && language !== 'en')) return undefined;
  return { adminId, name, scope, language };
}

function parseSession(value: unknown): WebSession | undefined {
  const grant = parseGrant(value);
  if (!grant || !isRecord(value)) return undefined;
  const { id, csrfToken, createdAt, lastSeenAt, generation } = value;
  if (typeof id !== 'string' || typeof csrfToken !== 'string') return undefined;
  if (typeof createdAt !== 'number' || typeof lastSeenAt !== 'number' || typeof generation !== 'number') return undefined;
  return { ...grant, id, csrfToken, createdAt, lastSeenAt, generation };
}
