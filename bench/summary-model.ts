import type { CompletionRequest, TextCompleter } from '../agent/model/index.js';
import type { Encode } from './model-work-cache.js';

// The bench's stand-in for the 2B model, deterministic and plausible: shown a stretch of the log, it lists the
// topics whose keyword comes up at least twice, most talked-about first, each with the message it started with,
// who opened it and a figure said about it; shown topic lists, it merges them by title and keeps the topics
// mentioned in the most lists. It stops where its output bound (in real Qwen3 tokens) would be passed. Like a small
// model it errs: every fifth topic it adds a figure no one said, every seventh it cites a message that is not there.

export interface ScriptedCall {
  system: string;
  user: string;
  maxTokens: number;
  /** Tokens of the answer by the real tokenizer. */
  outputTokens: number;
}

interface Mention {
  title: string;
  first: number;
  lines: string[];
  weight: number;
}

const logLine = /^#(\d{1,7}) \d{2}:\d{2} ([^:]{1,64}): (.*)$/;
const heading = /^## (.{1,200}) \(#(\d{1,7})\)$/;
const figure = /\d[\d,]*(?:\.\d+)?(?: ?(?:บาท|%|นาที|คัน))?/;

function fromLog(user: string, keywords: readonly string[]): Mention[] {
  const found = new Map<string, Mention>();
  for (const line of user.split('\n')) {
    const match = logLine.exec(line);
    if (!match) continue;
    const [, index = '0', speaker = '', text = ''] = match;
    for (const keyword of keywords) {
      if (!text.includes(keyword)) continue;
      const mention = found.get(keyword);
      if (mention) {
        mention.weight++;
        const said = figure.exec(text)?.[0];
        if (said && mention.lines.length < 2) mention.lines.push(`- ตัวเลขที่พูดถึง: ${said}`);
      } else found.set(keyword, { title: keyword, first: Number(index), lines: [`- ${speaker}: ${text.slice(0, 60)}`], weight: 1 });
    }
  }
  return [...found.values()].filter((mention) => mention.weight >= 2);
}

function fromSummaries(user: string): Mention[] {
  const found = new Map<string, Mention>();
  let current: Mention | undefined;
  for (const line of user.split('\n')) {
    const match = heading.exec(line);
    if (match) {
      const [, title = '', first = '0'] = match;
      current = found.get(title);
      if (current) {
        current.weight++;
        current.first = Math.min(current.first, Number(first));
      } else {
        current = { title, first: Number(first), lines: [], weight: 1 };
        found.set(title, current);
      }
    } else if (current && line.startsWith('- ') && current.lines.length < 2 && current.weight === 1) current.lines.push(line);
  }
  return [...found.values()];
}

export function scriptedSummarizer(keywords: readonly string[], encode: Encode): { complete: TextCompleter; calls: ScriptedCall[] } {
  const calls: ScriptedCall[] = [];
  let topicsWritten = 0;
  const complete = (request: CompletionRequest): Promise<string> => {
    const user = request.messages.map((message) => message.content).join('\n');
    const mentions = user.includes('<summaries>') ? fromSummaries(user) : fromLog(user, keywords);
    mentions.sort((left, right) => right.weight - left.weight || left.first - right.first);
    const maxTokens = request.maxTokens ?? 300;
    const chosen: string[] = [];
    let tokens = 0;
    for (const mention of mentions) {
      topicsWritten++;
      const lines = [...mention.lines];
      if (topicsWritten % 5 === 0) lines.push('- งบรวมประมาณ 987,654 บาท');
      if (topicsWritten % 7 === 0) lines.push('- ดูเพิ่มที่ #9999999');
      const block = [`## ${mention.title} (#${mention.first})`, ...lines].join('\n');
      const blockTokens = encode(`${block}\n\n`).length;
      if (tokens + blockTokens > maxTokens) break;
      chosen.push(block);
      tokens += blockTokens;
    }
    const answer = chosen.join('\n\n');
    calls.push({ system: request.system ?? '', user, maxTokens, outputTokens: encode(answer).length });
    return Promise.resolve(answer);
  };
  return { complete, calls };
}
