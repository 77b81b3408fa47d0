import type { Telegram } from 'telegraf';
import { telegramErrorText } from './error-text.js';
import { ExpiringAnswers } from '../../src/shared/expiring-answers.js';
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

export class AdminStatus {
  private readonly answers: ExpiringAnswers<boolean>;

  constructor(private readonly options: AdminStatusOptions) {
    this.answers = new ExpiringAnswers({ ttlMs: options.ttlMs, ...(options.now ? { now: options.now } : {}) });
  }

  async isAdministrator(chatId: number, userId: number): Promise<boolean> {
    const key = `${chatId}:${userId}`;
    const cached = this.answers.get(key);
    if (cached !== undefined) return cached;
    let admin: boolean;
    try {
      const member = await this.options.telegram.getChatMember(chatId, userId);
      admin = member.status === 'creator' || member.status === 'administrator';
    } catch (error) {
      // Not cached: the next command asks again. Refusing is the safe answer meanwhile.
      this.options.logger.warn({ chatId, error: telegramErrorText(error) }, 'telegram getChatMember failed; treating the sender as a member');
      return false;
    }
    this.answers.set(key, admin);
    return admin;
  }
}
