import type { Language } from './types.js';

/**
 * When a message was sent, as a person would say it: Thai "5 ธ.ค. 14:02 น." (with the Buddhist-era year when it is
 * not this year's), English "5 Dec 14:02" (with the year likewise), in the bot's time zone.
 */
export function sentAtText(sentAt: Date, language: Language, timeZone: string, now: number): string {
  const locale = language === 'th' ? 'th-TH-u-ca-buddhist-nu-latn' : 'en-GB-u-ca-gregory-nu-latn';
  const yearOf = (date: Date) => new Intl.DateTimeFormat(locale, { timeZone, year: 'numeric' }).format(date);
  const withYear = yearOf(sentAt) !== yearOf(new Date(now));
  const day = new Intl.DateTimeFormat(locale, { timeZone, day: 'numeric', month: 'short', ...(withYear ? { year: 'numeric' } : {}) }).format(sentAt);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(sentAt);
  return language === 'th' ? `${day} ${time} น.` : `${day} ${time}`;
}
