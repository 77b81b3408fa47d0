import type { QueueStats } from '../queue/inbound-queue.js';
import type { PlatformProblem, PlatformState } from '../shared/channel.js';
import { say, type Localized } from '../shared/i18n.js';
import type { Language, Platform } from '../shared/types.js';
import { platformNames } from './platform-names.js';

// The lines only a global admin's /status shows: uptime and version, the inbound backlog, each platform's state.

export interface AdminStatus {
  uptimeSeconds: number;
  version: string;
  queue: QueueStats;
  platforms: Partial<Record<Platform, PlatformState>>;
  /** Why the platforms that are down are down, and when each is tried again. */
  platformProblems?: Partial<Record<Platform, PlatformProblem>>;
}

const adminTemplate: Localized = {
  th: ['- ทำงานมาแล้ว: {uptime} (รุ่น {version})', '- ข้อความที่ยังค้างในคิว: {pending}{oldest}', '- แพลตฟอร์ม: {platforms}'].join('\n'),
  en: ['- Running for: {uptime} (version {version})', '- Messages waiting in the queue: {pending}{oldest}', '- Platforms: {platforms}'].join('\n'),
};
const oldestWaiting: Localized = { th: ' (รอนานสุด {age})', en: ' (oldest waiting {age})' };
const noPlatforms: Localized = { th: 'ไม่มี', en: 'none' };
const platformStateNames: Record<PlatformState, Localized> = {
  starting: { th: 'กำลังเริ่ม', en: 'starting' },
  running: { th: 'ทำงานอยู่', en: 'running' },
  standby: { th: 'สแตนด์บาย (โปรเซสอื่นรับอัปเดตอยู่)', en: 'standby (another process takes the updates)' },
  retrying: { th: 'ยังเชื่อมต่อไม่ได้ กำลังลองใหม่', en: 'down, retrying' },
  failed: { th: 'เริ่มไม่สำเร็จ', en: 'failed to start' },
  stopped: { th: 'หยุดแล้ว', en: 'stopped' },
};
const problemTemplate: Localized = { th: ' ({reason})', en: ' ({reason})' };
const nextAttempt: Localized = { th: ' ({reason}; ลองใหม่ในอีก {wait})', en: ' ({reason}; next try in {wait})' };

/** "(connection refused; next try in 40 s)": why a platform is down, short and free of secrets. */
function problemText(problem: PlatformProblem | undefined, language: Language): string {
  if (!problem) return '';
  const reason = say(problem.reason, language);
  if (!problem.nextAttemptAt) return say(problemTemplate, language, { reason });
  const wait = formatDuration((problem.nextAttemptAt.getTime() - Date.now()) / 1000, language);
  return say(nextAttempt, language, { reason, wait });
}

const durationUnits: Record<'days' | 'hours' | 'minutes' | 'seconds', Localized> = {
  days: { th: '{count} วัน', en: '{count} d' },
  hours: { th: '{count} ชั่วโมง', en: '{count} h' },
  minutes: { th: '{count} นาที', en: '{count} min' },
  seconds: { th: '{count} วินาที', en: '{count} s' },
};

/** "2 วัน 3 ชั่วโมง" / "2 d 3 h": the two largest units, enough to read at a glance. */
export function formatDuration(totalSeconds: number, language: Language): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const parts: [keyof typeof durationUnits, number][] = [
    ['days', Math.floor(seconds / 86_400)],
    ['hours', Math.floor(seconds / 3_600) % 24],
    ['minutes', Math.floor(seconds / 60) % 60],
    ['seconds', seconds % 60],
  ];
  const first = parts.findIndex(([, count]) => count > 0);
  if (first === -1) return say(durationUnits.seconds, language, { count: 0 });
  return parts
    .slice(first, first + 2)
    .filter(([, count]) => count > 0)
    .map(([unit, count]) => say(durationUnits[unit], language, { count }))
    .join(' ');
}

export function adminLines(admin: AdminStatus, language: Language): string {
  const platforms = Object.entries(admin.platforms).map(
    ([platform, state]) =>
      `${say(platformNames[platform as Platform], language)} ${say(platformStateNames[state], language)}${problemText(admin.platformProblems?.[platform as Platform], language)}`,
  );
  return say(adminTemplate, language, {
    uptime: formatDuration(admin.uptimeSeconds, language),
    version: admin.version,
    pending: admin.queue.pending,
    oldest: admin.queue.pending > 0 ? say(oldestWaiting, language, { age: formatDuration(admin.queue.oldestPendingAgeSeconds, language) }) : '',
    platforms: platforms.join(', ') || say(noPlatforms, language),
  });
}
