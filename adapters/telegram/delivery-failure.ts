import { say, type Localized } from '../../src/shared/i18n.js';
import type { Language } from '../../src/shared/types.js';

// A reply that could not be delivered, as a typed error the caller can journal, log and tell the user about.

export type DeliveryFailureKind = 'blocked' | 'rate-limited' | 'network' | 'rejected';

export class TelegramDeliveryError extends Error {
  override readonly name = 'TelegramDeliveryError';

  constructor(
    readonly kind: DeliveryFailureKind,
    readonly chatId: number,
    /** Parts that did go out before the failure (0 for a single message or a document). */
    readonly sentParts: number,
    readonly detail: { retryAfterSeconds?: number; description?: string } = {},
  ) {
    // No message text and no URL (a connection error's URL holds the token): kind, chat and counts only.
    super(`telegram delivery to chat ${chatId} failed: ${kind} after ${sentParts} part(s)`);
  }
}

/** What to tell the user (or, for a blocked chat, the log and the admins: the chat itself cannot be reached). */
export const deliveryFailureNotices: Record<DeliveryFailureKind, Localized> = {
  'rate-limited': {
    th: 'Telegram จำกัดความถี่การส่งข้อความในแชตนี้ จึงส่งคำตอบได้ไม่ครบ กรุณาถามใหม่อีกครั้งในอีกประมาณ {seconds} วินาที',
    en: 'Telegram is limiting how fast messages can be sent in this chat, so the answer is incomplete. Please ask again in about {seconds} seconds.',
  },
  network: {
    th: 'ส่งคำตอบไปยัง Telegram ไม่สำเร็จเพราะการเชื่อมต่อขัดข้อง กรุณาลองใหม่อีกครั้ง',
    en: 'The answer could not be sent to Telegram because the connection failed. Please try again.',
  },
  rejected: {
    th: 'Telegram ไม่รับข้อความคำตอบนี้ กรุณาลองถามใหม่อีกครั้ง',
    en: 'Telegram did not accept this answer. Please try asking again.',
  },
  blocked: {
    th: 'บอตถูกบล็อกหรือถูกนำออกจากแชตนี้ จึงส่งข้อความไม่ได้',
    en: 'The bot was blocked or removed from this chat, so it cannot send messages there.',
  },
};

export function describeDeliveryFailure(error: TelegramDeliveryError, language: Language): string {
  return say(deliveryFailureNotices[error.kind], language, { seconds: error.detail.retryAfterSeconds ?? 30 });
}
