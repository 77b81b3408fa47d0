import { say, type Localized } from '../shared/i18n.js';
import type { Language } from '../shared/types.js';
import type { RedisClient } from '../redis/redis-client.js';

// Why a fenced write or a renewal found the conversation's lease not ours. "Another process took it" is only one
// answer: with one process, a lease key that is simply gone means it expired unrenewed or Redis lost its data — a
// restart without the append-only file, which also forgets the message itself. The log must say which.

export type LeaseLoss = 'taken' | 'expired' | 'message-gone';

const texts = {
  taken: {
    th: 'บทสนทนา {conversation} ถูกโปรเซสอื่นรับไปทำแล้ว',
    en: 'the conversation {conversation} was taken over by another process',
  },
  expired: {
    th: 'สิทธิ์ทำงาน (lease) ของบทสนทนา {conversation} หายไปจาก Redis และไม่มีโปรเซสใดถือ: หมดอายุเพราะต่ออายุไม่ทัน (ติดต่อ Redis ไม่ได้นานเกิน REDIS_LEASE_SECONDS) หรือ Redis รีสตาร์ตโดยไม่ได้บันทึกข้อมูล (appendonly no)',
    en: 'the lease on the conversation {conversation} is gone from Redis and no process holds it: it expired unrenewed (Redis unreachable for longer than REDIS_LEASE_SECONDS), or Redis restarted without persistence (appendonly no)',
  },
  messageGone: {
    th: 'ข้อความ {sequence} ของบทสนทนา {conversation} หายไปจาก Redis: Redis รีสตาร์ตโดยไม่ได้บันทึกข้อมูล (appendonly no) หรือถูกล้าง ข้อความนี้สูญหาย',
    en: 'the message {sequence} of the conversation {conversation} is gone from Redis: Redis restarted without persistence (appendonly no) or was emptied, and the message is lost',
  },
} satisfies Record<string, Localized>;

/** A write refused because the conversation's lease is no longer this process's; the message says why. */
export class LeaseLostError extends Error {
  constructor(
    readonly conversationKey: string,
    readonly loss: LeaseLoss,
    language: Language,
    sequence?: number,
  ) {
    super(describeLeaseLoss(loss, language, conversationKey, sequence));
  }
}

export function describeLeaseLoss(loss: LeaseLoss, language: Language, conversation: string, sequence?: number): string {
  const text = loss === 'taken' ? texts.taken : loss === 'expired' ? texts.expired : texts.messageGone;
  return say(text, language, { conversation, sequence: sequence ?? '?' });
}

/** Looks (two reads, one round trip) at the lease key and, when given, the message's hash. */
export async function findLeaseLoss(client: RedisClient, prefix: string, conversation: string, sequence?: number): Promise<LeaseLoss> {
  const [holder, messageKept] = await Promise.all([
    client.get(`${prefix}lease:${conversation}`),
    sequence === undefined ? Promise.resolve(1) : client.exists(`${prefix}m:${sequence}`),
  ]);
  if (messageKept === 0) return 'message-gone';
  return holder === null ? 'expired' : 'taken';
}
