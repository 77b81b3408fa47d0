import { randomInt } from 'node:crypto';

// `/kb delete` asks first: the reply carries a short code that must come back, from the same person in the
// same conversation, within a few minutes. Typing `/kb delete faq confirm` blindly is not enough.

export const confirmationMinutes = 5;

interface Pending {
  code: string;
  expiresAt: number;
}

export type ConfirmationCheck = 'confirmed' | 'wrong-code' | 'none-pending';

export class DeleteConfirmations {
  private readonly pending = new Map<string, Pending>();

  private static key(conversationKey: string, sender: string, knowledgeBaseId: string): string {
    return `${conversationKey}\u0000${sender}\u0000${knowledgeBaseId}`;
  }

  /** Starts (or restarts) a confirmation and returns its code. */
  request(conversationKey: string, sender: string, knowledgeBaseId: string, now: Date): string {
    this.sweep(now);
    const code = String(randomInt(1000, 10_000));
    this.pending.set(DeleteConfirmations.key(conversationKey, sender, knowledgeBaseId), { code, expiresAt: now.getTime() + confirmationMinutes * 60_000 });
    return code;
  }

  /** A matching, unexpired code is consumed; a wrong one is kept so a typo can be retried. */
  confirm(conversationKey: string, sender: string, knowledgeBaseId: string, code: string, now: Date): ConfirmationCheck {
    this.sweep(now);
    const key = DeleteConfirmations.key(conversationKey, sender, knowledgeBaseId);
    const pending = this.pending.get(key);
    if (!pending) return 'none-pending';
    if (pending.code !== code.trim()) return 'wrong-code';
    this.pending.delete(key);
    return 'confirmed';
  }

  private sweep(now: Date): void {
    for (const [key, pending] of this.pending) if (pending.expiresAt <= now.getTime()) this.pending.delete(key);
  }
}
