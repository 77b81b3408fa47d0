import type { Telegram } from 'telegraf';
import { telegramErrorText } from './error-text.js';
import type { Logger } from '../../src/shared/log.js';

// Whether a group member is one of its administrators (creator or administrator, from getChatMember), for the
// commands that need it (/kb). Cached briefly per chat and user: a burst of commands costs one call, and a
// demotion counts within a minute.

export interface AdminStatusOptions {
  telegram: Pick<Telegram, 'getChatMember'>;
  logger: Logger;
  ttlMs: number;
  now?: () => number;
}

/** Cached answers kept at most; the oldest go first (a busy bot meets many users). */
const maxCachedEntries = 10_000;

export class AdminStatus {
  private readonly cache = new Map<string, { admin: boolean; until: number }>();
  private readonly now: () => number;

  constructor(private readonly options: AdminStatusOptions) {
    this.now = options.now ?? Date.now;
  }

  async isAdministrator(chatId: number, userId: number): Promise<boolean> {
    const key = `${chatId}:${userId}`;
    const cached = this.cache.get(key);
    if (cached && cached.until > this.now()) return cached.admin;
    let admin: boolean;
    try {
      const member = await this.options.telegram.getChatMember(chatId, userId);
      admin = member.status === 'creator' || member.status === 'administrator';
    } catch (error) {
      // Not cached: the next command asks again. Refusing is the safe answer meanwhile.
      this.options.logger.warn({ chatId, error: telegramErrorText(error) }, 'telegram getChatMember failed; treating the sender as a member');
      return false;
    }
    this.cache.delete(key);
    this.cache.set(key, { admin, until: this.now() + this.options.ttlMs });
    if (this.cache.size > maxCachedEntries) this.cache.delete(this.cache.keys().next().value ?? key);
    return admin;
  }
}
