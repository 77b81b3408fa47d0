import { randomInt } from 'node:crypto';
import { Keyv } from 'keyv';
import { z } from 'zod';

// `/kb delete` asks first: the reply carries a short code that must come back, from the same person in the
// same conversation, within a few minutes. Typing `/kb delete faq confirm` blindly is not enough.
// The pending code lives in the cache store (state.db, or Redis with REDIS_URL) with its expiry as the key's TTL, so
// it can be confirmed after a restart, from `npm run cli`, or through another bot process — not only in the memory of
// the process that asked. The expiry is also kept in the value and checked against the command's clock.

export const confirmationMinutes = 5;

const pendingSchema = z.object({ code: z.string().max(16), expiresAt: z.number() });

export type ConfirmationCheck = 'confirmed' | 'wrong-code' | 'none-pending';

export class DeleteConfirmations {
  /** `store`: the app's cache namespace; without one (tests of the command alone) an in-memory Keyv. */
  constructor(private readonly store: Keyv = new Keyv()) {}

  private static key(conversationKey: string, sender: string, knowledgeBaseId: string): string {
    return `kb-delete:${JSON.stringify([conversationKey, sender, knowledgeBaseId])}`;
  }

  /** Starts (or restarts) a confirmation and returns its code. */
  async request(conversationKey: string, sender: string, knowledgeBaseId: string, now: Date): Promise<string> {
    const code = String(randomInt(1000, 10_000));
    const ttlMs = confirmationMinutes * 60_000;
    await this.store.set(DeleteConfirmations.key(conversationKey, sender, knowledgeBaseId), { code, expiresAt: now.getTime() + ttlMs }, ttlMs);
    return code;
  }

  /**
   * A matching, unexpired code is consumed — by one caller only: of two processes confirming at once, the one whose
   * delete removed the key wins. A wrong one is kept so a typo can be retried.
   */
  async confirm(conversationKey: string, sender: string, knowledgeBaseId: string, code: string, now: Date): Promise<ConfirmationCheck> {
    const key = DeleteConfirmations.key(conversationKey, sender, knowledgeBaseId);
    const pending = pendingSchema.safeParse(await this.store.get(key));
    if (!pending.success) return 'none-pending';
    if (pending.data.expiresAt <= now.getTime()) {
      await this.store.delete(key);
      return 'none-pending';
    }
    if (pending.data.code !== code.trim()) return 'wrong-code';
    return (await this.store.delete(key)) ? 'confirmed' : 'none-pending';
  }
}
