import { isValidTimeZone, wallClockOf } from './zoned-time.js';
import type { Recurrence } from './when-types.js';

// How a reminder's time is shown in the confirmation and the list, in the group's zone. The names are written here
// rather than taken from Intl so the text does not change with the ICU build: Thai "วันอังคารที่ 8 ธันวาคม 2569 เวลา
// 09:00 น." (Buddhist-Era year), English "Tuesday 8 December 2026 at 09:00"; a recurring one says its rule and the
// next time.

const thaiDays = ['อาทิตย์', 'จันทร์', 'อังคาร', 'พุธ', 'พฤหัสบดี', 'ศุกร์', 'เสาร์'];
const thaiMonths = ['มกราคม', 'กุมภาพันธ์', 'มีนาคม', 'เมษายน', 'พฤษภาคม', 'มิถุนายน', 'กรกฎาคม', 'สิงหาคม', 'กันยายน', 'ตุลาคม', 'พฤศจิกายน', 'ธันวาคม'];
const englishDays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const englishMonths = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const twoDigits = (value: number): string => String(value).padStart(2, '0');

/** An unknown zone is shown as UTC rather than throwing. */
export function describeWhen(at: Date, recurrence: Recurrence | undefined, language: 'th' | 'en', timeZone: string): string {
  const zone = isValidTimeZone(timeZone) ? timeZone : 'UTC';
  const wall = wallClockOf(Number.isNaN(at.getTime()) ? new Date(0) : at, zone);
  const clock = `${twoDigits(wall.hour)}:${twoDigits(wall.minute)}`;
  if (language === 'th') {
    const day = `วัน${thaiDays[wall.weekday] ?? ''}ที่ ${wall.day} ${thaiMonths[wall.month - 1] ?? ''} ${wall.year + 543}`;
    if (!recurrence) return `${day} เวลา ${clock} น.`;
    return `${thaiRule(recurrence)} เวลา ${clock} น. (ครั้งถัดไป ${day})`;
  }
  const day = `${englishDays[wall.weekday] ?? ''} ${wall.day} ${englishMonths[wall.month - 1] ?? ''} ${wall.year}`;
  if (!recurrence) return `${day} at ${clock}`;
  return `${englishRule(recurrence)} at ${clock} (next: ${day})`;
}

function weekdayOfRule(weekday: number): number {
  return ((Math.trunc(weekday) % 7) + 7) % 7;
}

function thaiRule(recurrence: Recurrence): string {
  switch (recurrence.kind) {
    case 'daily':
      return 'ทุกวัน';
    case 'weekdays':
      return 'ทุกวันจันทร์ถึงวันศุกร์';
    case 'weekly':
      return `ทุกวัน${thaiDays[weekdayOfRule(recurrence.weekday)] ?? ''}`;
  }
}

function englishRule(recurrence: Recurrence): string {
  switch (recurrence.kind) {
    case 'daily':
      return 'every day';
    case 'weekdays':
      return 'every weekday (Monday to Friday)';
    case 'weekly':
      return `every ${englishDays[weekdayOfRule(recurrence.weekday)] ?? ''}`;
  }
}
