import type { Language } from '../../src/shared/types.js';
import { markUnsupportedNumbers } from '../guards/unsupported-numbers.js';
import { dataLine, type Clock, type LogEntry } from './log-lines.js';
import { parseTopics, type Topic } from './topics.js';

// The last answer made into what the group reads: topics as headings with their lines, every figure checked
// against the log by the answer guard's own policy (agent/guards/unsupported-numbers.ts: a figure no message holds
// becomes the "unconfirmed" marker), and after each topic, written by code, a link to the message it started with.

export interface SummaryTopic {
  title: string;
  /** Index of the entry the topic started with, where the model cited one the log holds. */
  first?: number;
  /** When that entry was said, and by whom. */
  at?: number;
  speaker?: string;
  /** Its link, where the platform gives one. */
  link?: string;
}

export interface FinalText {
  text: string;
  topics: SummaryTopic[];
  /** Figures the log does not hold, replaced by the marker. */
  unconfirmedFigures: number;
}

/** Keeps the blocks apart through the guard, which edits figures only; taken out of the model's text first. */
const blockSeparator = '\n\u2063\n';
const maxLinkChars = 300;

function usableLink(link: string | undefined): string | undefined {
  if (link === undefined || link.length > maxLinkChars || !/^https?:\/\/\S+$/.test(link)) return undefined;
  return link;
}

function topicBlock(topic: Topic): string {
  return [`## ${topic.title || '…'}`, ...topic.lines].join('\n');
}

function described(topic: Topic, entries: readonly LogEntry[]): SummaryTopic {
  const entry = topic.first === undefined ? undefined : entries[topic.first];
  if (!entry || topic.first === undefined) return { title: topic.title };
  const link = usableLink(entry.link);
  return { title: topic.title, first: topic.first, at: entry.at, speaker: entry.speaker, ...(link ? { link } : {}) };
}

/**
 * The final answer as the summary's text. `valid` says which entries a reference may name (those its call was shown);
 * `support` is the log's text that figures may rest on (log-lines.ts, figureSupport).
 */
export function finalText(
  answer: string,
  context: { entries: readonly LogEntry[]; valid: (entry: number) => boolean; support: readonly string[]; clock: Clock; language: Language },
): FinalText {
  const list = parseTopics(answer.replaceAll('\u2063', ''), context.valid);
  const topics = list.topics.filter((topic) => topic.title !== '' || topic.lines.some((line) => line.trim() !== ''));
  const blocks = [list.preamble.join('\n'), ...topics.map(topicBlock)];
  const checked = markUnsupportedNumbers(blocks.join(blockSeparator), context.support, context.language);
  const [preamble = '', ...checkedBlocks] = checked.text.split(blockSeparator);
  const summaryTopics = topics.map((topic) => described(topic, context.entries));
  const parts = checkedBlocks.map((block, index) => {
    const topic = summaryTopics[index];
    if (!topic?.link || topic.at === undefined) return block;
    return `${block}\n🔗 ${context.clock.day(topic.at)} ${context.clock.time(topic.at)} ${dataLine(topic.speaker ?? '', 64)}: ${topic.link}`;
  });
  // Titles as the reader sees them: after the guard (a figure in a title is checked too).
  const titled = summaryTopics.map((topic, index) => ({ ...topic, title: (checkedBlocks[index] ?? '').split('\n', 1)[0]?.slice(3) ?? topic.title }));
  const text = [preamble.trim(), ...parts].filter((part) => part !== '').join('\n\n');
  return { text, topics: titled, unconfirmedFigures: checked.unsupported };
}
