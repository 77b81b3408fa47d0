import Bottleneck from 'bottleneck';
import type { UserQuota } from './user-quota.js';

/** Per-user message quota: `perMinute` messages per user per minute, via bottleneck reservoirs in this process. */
export class InProcessUserQuota implements UserQuota {
  private readonly group: Bottleneck.Group;
  private readonly noticeSentAt = new Map<string, number>();

  constructor(
    readonly perMinute: number,
    private readonly windowMs = 60_000,
  ) {
    this.group = new Bottleneck.Group({
      reservoir: perMinute,
      reservoirRefreshAmount: perMinute,
      reservoirRefreshInterval: windowMs,
      timeout: windowMs * 2, // idle per-user limiters are dropped
    });
  }

  /** Takes one unit of the user's quota; false when it is used up. */
  async take(userKey: string): Promise<boolean> {
    // One atomic reservoir step (no job scheduling: that costs bottleneck's timer round trips on every message).
    // Below zero means the quota is used up; the refresh sets the reservoir back to `perMinute`.
    const left = await this.group.key(userKey).incrementReservoir(-1);
    return left === null || left >= 0;
  }

  /** True once per window per user, so a flooding user hears the notice once, not on every message. */
  shouldNotify(userKey: string, now = Date.now()): boolean {
    const last = this.noticeSentAt.get(userKey);
    if (last !== undefined && now - last < this.windowMs) return false;
    this.noticeSentAt.set(userKey, now);
    return true;
  }

  async close(): Promise<void> {
    await Promise.all(this.group.limiters().map(({ limiter }) => limiter.disconnect()));
  }
}
