// A lease one process holds at a time among those sharing a store (src/redis/redis-lease.ts): the Telegram
// adapter polls getUpdates only while it holds one, since Telegram answers a second poller with 409 Conflict.

export interface SingletonLease {
  /**
   * Waits, trying again, until this process holds the lease (resolves with it) or `signal` aborts (resolves with
   * undefined). Never rejects: a store that is down is one more reason to wait.
   */
  acquire(signal: AbortSignal): Promise<HeldLease | undefined>;
}

export interface HeldLease {
  /**
   * Resolves when the lease is no longer ours: a renewal found another owner, or the store could not be reached for
   * as long as the lease lasts (another process may hold it by now). Stop the guarded work at once.
   */
  readonly lost: Promise<void>;
  /** Stops renewing and gives the lease up, so another process takes it without waiting for it to expire. */
  release(): Promise<void>;
}
