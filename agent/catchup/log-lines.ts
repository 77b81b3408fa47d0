import type { Language } from '../../src/shared/types.js';
import { oneLine } from '../tools/web-search/thai-text.js';

// One log entry as one compact prompt line, `#<n> HH:MM <speaker>: <text>`, n being the entry's index (what the
// model cites), and a day line before the first entry of each day. The text is the group's, not ours: it is folded
// to one line, so that no message can start a line of its own and pass for another entry or close the data frame.

/** What the summarizer reads of an entry: src/catchup/group-log-entry.ts's GroupLogEntry fits it. */
export interface LogEntry {
  /** Epoch ms. */
  at: number;
  speaker: string;
  text: string;
  link?: string;
}

/** The store's bounds (groupLogBounds), kept here too: the summarizer cannot trust its caller to have cut. */
const maxTextChars = 1_000;
const maxSpeakerChars = 64;

export interface LogLine {
  /** Index of the entry in the caller's array. */
  index: number;
  at: number;
  /** The day line to put before this line when it opens a chunk or a new day (`[อ. 14 ม.ค.]`). */
  day: string;
  /** The day line is due here even inside a chunk: the day changed since the line before. */
  newDay: boolean;
  text: string;
}

/** Clock and day formatters for one zone; an unknown zone falls back to UTC rather than failing the summary. */
export interface Clock {
  time(at: number): string;
  day(at: number): string;
}

function formatters(language: Language, timeZone: string): [Intl.DateTimeFormat, Intl.DateTimeFormat] {
  const locale = language === 'th' ? 'th-TH-u-nu-latn' : 'en-GB';
  return [
    new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
    new Intl.DateTimeFormat(locale, { timeZone, weekday: 'short', day: 'numeric', month: 'short' }),
  ];
}

export function clockFor(language: Language, timeZone: string): Clock {
  let pair: [Intl.DateTimeFormat, Intl.DateTimeFormat];
  try {
    pair = formatters(language, timeZone);
  } catch {
    pair = formatters(language, 'UTC');
  }
  const [time, day] = pair;
  return { time: (at) => time.format(at), day: (at) => day.format(at) };
}

/** The data frames' tags (prompts.ts) made inert in text that goes inside one. */
export function defuseFrames(text: string): string {
  return text.replace(/<(\/?)(log|summaries)>/gi, '‹$1$2›');
}

/** One line, cut to `max` characters, with the frames' tags defused. */
export function dataLine(text: string, max: number): string {
  return defuseFrames(oneLine(text, max));
}

/** The prompt lines of a log, entries without text left out (their indices stay the caller's). */
export function logLines(entries: readonly LogEntry[], clock: Clock): LogLine[] {
  const lines: LogLine[] = [];
  let previousDay = '';
  entries.forEach((entry, index) => {
    const text = dataLine(entry.text, maxTextChars);
    if (text === '') return;
    const day = clock.day(entry.at);
    lines.push({
      index,
      at: entry.at,
      day: `[${day}]`,
      newDay: day !== previousDay,
      text: `#${index} ${clock.time(entry.at)} ${dataLine(entry.speaker, maxSpeakerChars)}: ${text}`,
    });
    previousDay = day;
  });
  return lines;
}

/** What figures in the summary may rest on: every line without its `#n` (an index is no figure of the group's). */
export function figureSupport(lines: readonly LogLine[]): string[] {
  const support: string[] = [];
  for (const line of lines) {
    if (line.newDay) support.push(line.day);
    support.push(line.text.slice(line.text.indexOf(' ') + 1));
  }
  return support;
}
