import type { Keyv } from 'keyv';
import type { Logger } from '../shared/log.js';
import { PerKeyChain } from '../shared/per-key-chain.js';
import { isRecord } from '../shared/is-record.js';

// Every change made on the admin page, who made it and when: one log line each (the durable trail, with the other
// logs), and the latest entries in the shared store for the sessions page. Entries name ids and names, never a
// document's text or a secret.

export interface AuditEntry {
  at: number;
  who: string;
  action: string;
  detail: Record<string, string | number>;
}

/** Entries kept in the store (the log keeps them all). */
const keptEntries = 500;
const key = 'audit';

export class AuditLog {
  /** Appends in this process one at a time (a read-modify-write of the list). */
  private readonly chain = new PerKeyChain();

  constructor(
    private readonly store: Keyv,
    private readonly log: Logger,
  ) {}

  async write(entry: AuditEntry): Promise<void> {
    this.log.info({ audit: entry }, 'admin page: change');
    await this.chain.run(key, async () => {
      const entries = await this.latest();
      await this.store.set(key, [entry, ...entries].slice(0, keptEntries));
    });
  }

  /** Newest first. */
  async latest(): Promise<AuditEntry[]> {
    const stored: unknown = await this.store.get(key);
    return Array.isArray(stored) ? stored.filter(isAuditEntry) : [];
  }
}

function isAuditEntry(value: unknown): value is AuditEntry {
  return isRecord(value) && typeof value.at === 'number' && typeof value.who === 'string' && typeof value.action === 'string' && isRecord(value.detail);
}
