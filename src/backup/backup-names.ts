import { existsSync } from 'node:fs';

// Folder names: saeng-backup-YYYYMMDD-HHMMSS in the bot's time zone (what the people running it read on their
// clock), with -2, -3, … when two are made in the same second. Nothing is ever written over an existing folder.

export const backupFolderPrefix = 'saeng-backup-';
const backupFolderPattern = /^saeng-backup-\d{8}-\d{6}(-\d{1,4})?$/;

export function isBackupFolderName(name: string): boolean {
  return name.length <= 40 && backupFolderPattern.test(name);
}

/** YYYYMMDD-HHMMSS of `date` in `timeZone`. */
export function timeStamp(date: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((candidate) => candidate.type === type)?.value ?? '00';
  return `${part('year')}${part('month')}${part('day')}-${part('hour')}${part('minute')}${part('second')}`;
}

/** `base`, or `base-2`, `base-3`, … : the first path for which nothing exists yet (nor `taken` says so). */
export function freePath(base: string, taken: (candidate: string) => boolean = existsSync): string {
  if (!taken(base)) return base;
  for (let suffix = 2; suffix < 10_000; suffix++) {
    const candidate = `${base}-${suffix}`;
    if (!taken(candidate)) return candidate;
  }
  throw new Error(`no free name beside ${base}`);
}
