import { say, type Localized } from '../../src/shared/i18n.js';
import type { Language } from '../../src/shared/types.js';
import type { PollingRole } from './leased-polling.js';

// What /status says about how this process takes Telegram updates, when there is something to say: its turn with
// the polling lease (several processes share REDIS_URL), or a 409 Conflict from a poller outside the lease.

const strings = {
  standby: {
    th: 'Telegram: สแตนด์บาย (โปรเซสอื่นกำลังรับอัปเดตอยู่) โปรเซสนี้ยังส่งคำตอบได้ตามปกติ',
    en: 'Telegram: standby (another process polls); this process still sends answers',
  },
  polling: {
    th: 'Telegram: โปรเซสนี้เป็นผู้รับอัปเดต (long polling) ในบรรดาโปรเซสที่ใช้ Redis ร่วมกัน',
    en: 'Telegram: this process polls for updates (long polling) among the processes sharing Redis',
  },
  conflict: {
    th: 'Telegram: มีโปรเซสอื่นรับอัปเดตด้วยโทเค็นเดียวกัน (409 Conflict) ให้ทุกโปรเซสใช้ REDIS_URL เดียวกัน หรือเปิดบอทเพียงตัวเดียว',
    en: 'Telegram: another process polls with the same token (409 Conflict); give every process the same REDIS_URL, or run one bot only',
  },
} satisfies Record<string, Localized>;

export interface PollingStatus {
  /** Undefined without a lease (one process, or webhook mode). */
  role: PollingRole | undefined;
  inConflict: boolean;
}

export function pollingStatusLines(status: PollingStatus, language: Language): string[] {
  const lines: string[] = [];
  if (status.role) lines.push(say(strings[status.role], language));
  if (status.inConflict) lines.push(say(strings.conflict, language));
  return lines;
}
