import { say, type Localized } from '../shared/i18n.js';
import { escapeMarkdown } from '../shared/markdown.js';
import type { Language } from '../shared/types.js';
import { addCounts, emptyCounts, type UsageCounts, type UsageRow } from '../storage/usage-store.js';

// /usage's text: the sums of each period and a top list, numbers written for people (grouped digits, a duration in
// seconds, minutes or hours). Names users chose are escaped; keys are shown as code.

export type UsagePeriod = 'today' | '7d' | '30d';

export const periodDays: Record<UsagePeriod, number> = { today: 1, '7d': 7, '30d': 30 };

export const periodNames: Record<UsagePeriod, Localized> = {
  today: { th: 'วันนี้', en: 'Today' },
  '7d': { th: '7 วัน', en: '7 days' },
  '30d': { th: '30 วัน', en: '30 days' },
};

const texts = {
  counts: {
    th: '{turns} ครั้ง · เวลาโมเดล {model} · โทเค็นพรอมต์ {prompt} · โทเค็นที่สร้าง {generated} · ค้นเว็บ {searches} · อ่านรูป (OCR) {ocr}',
    en: 'turns {turns} · model time {model} · prompt tokens {prompt} · generated tokens {generated} · web searches {searches} · OCR pages {ocr}',
  },
  seconds: { th: '{n} วินาที', en: '{n} s' },
  minutes: { th: '{n} นาที', en: '{n} min' },
  hours: { th: '{n} ชั่วโมง', en: '{n} h' },
} satisfies Record<string, Localized>;

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

export function formatNumber(value: number): string {
  return grouped.format(value);
}

export function formatDuration(ms: number, language: Language): string {
  const seconds = ms / 1000;
  if (seconds < 90) return say(texts.seconds, language, { n: formatNumber(Math.round(seconds)) });
  if (seconds < 90 * 60) return say(texts.minutes, language, { n: formatNumber(Math.round(seconds / 60)) });
  return say(texts.hours, language, { n: formatNumber(Math.round(seconds / 360) / 10) });
}

export function countsLine(counts: UsageCounts, language: Language): string {
  return say(texts.counts, language, {
    turns: formatNumber(counts.turns),
    model: formatDuration(counts.modelMs, language),
    prompt: formatNumber(counts.promptTokens),
    generated: formatNumber(counts.generatedTokens),
    searches: formatNumber(counts.searches),
    ocr: formatNumber(counts.ocrPages),
  });
}

export function sumOf(rows: readonly UsageRow[]): UsageCounts {
  const total = emptyCounts();
  for (const row of rows) addCounts(total, row.counts);
  return total;
}

export interface Ranked {
  label: string;
  counts: UsageCounts;
}

/** Rows summed by `keyOf`, most turns first (then model time), at most `limit`. */
export function ranked(rows: readonly UsageRow[], keyOf: (row: UsageRow) => string, labelOf: (row: UsageRow) => string, limit: number): Ranked[] {
  const groups = new Map<string, Ranked>();
  for (const row of rows) {
    const key = keyOf(row);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { label: labelOf(row), counts: emptyCounts() }));
    addCounts(group.counts, row.counts);
  }
  return [...groups.values()].sort((a, b) => b.counts.turns - a.counts.turns || b.counts.modelMs - a.counts.modelMs).slice(0, limit);
}

export function rankedLines(entries: readonly Ranked[], language: Language): string[] {
  return entries.map((entry, index) => `${index + 1}. ${entry.label} — ${countsLine(entry.counts, language)}`);
}

export const userLabel = (row: UsageRow): string => escapeMarkdown(row.userName);
export const spaceLabel = (row: UsageRow): string => `\`${row.spaceKey}\``;
