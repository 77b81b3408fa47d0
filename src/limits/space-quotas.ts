import type { UserQuota } from './user-quota.js';

// The per-user quota of a space that chose its own (/settings quota): one more counter per distinct limit, made on
// first use (at most one per value a space can choose), and the user's count in that space kept apart from the
// bot-wide one, so a stricter group does not spend the user's quota elsewhere.

export class SpaceQuotas {
  private readonly byLimit = new Map<number, UserQuota>();

  constructor(
    readonly standard: UserQuota,
    private readonly make: (perMinute: number) => UserQuota,
  ) {}

  /** The quota and the user's key in it: the bot-wide one unless the space chose another limit. */
  forSpace(spaceKey: string, userKey: string, perMinute: number | undefined): { quota: UserQuota; key: string } {
    if (perMinute === undefined || perMinute === this.standard.perMinute) return { quota: this.standard, key: userKey };
    let quota = this.byLimit.get(perMinute);
    if (!quota) {
      quota = this.make(perMinute);
      this.byLimit.set(perMinute, quota);
    }
    return { quota, key: `${spaceKey}|${userKey}` };
  }

  async close(): Promise<void> {
    await Promise.all([this.standard, ...this.byLimit.values()].map((quota) => quota.close()));
  }
}
