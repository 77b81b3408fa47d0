/** Per-user message quota: `perMinute` messages per user per minute. The router depends on this only. */
export interface UserQuota {
  readonly perMinute: number;
  /** Takes one unit of the user's quota; false when it is used up. */
  take(userKey: string): Promise<boolean>;
  /** True once per window per user, so a flooding user hears the notice once, not on every message. */
  shouldNotify(userKey: string): boolean | Promise<boolean>;
  close(): Promise<void>;
}
