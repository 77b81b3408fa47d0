import { originalSpan, prepareText } from './prepared-text.js';
import { readWhen } from './parse-when.js';
import type { TextSpan, WhenContext, WhenResult } from './when-types.js';

// Whether a message (the bot's name, mention or command already removed) asks for a reminder, and about what.
//
// A request has a reminder verb — เตือน, ช่วยเตือน, ตั้งเตือน, แจ้งเตือน; "remind me/us/everyone…", "set a
// reminder", "reminder:" — that is not a noun or another sense: คำเตือน, การเตือน, ตักเตือน, ระบบแจ้งเตือน,
// เตือนภัย, เตือนสติ and เตือนใจ are not requests ("เตือนใจตัวเองว่า…" is a note to oneself, judged not a request:
// the bot would otherwise schedule a sentence nobody asked it to repeat). Then either a time is said, or the verb opens
// the message ("เตือนส่งรายงานด้วย": the caller asks when). A why/how question, a negation ("อย่าเตือน", "don't
// remind") or a question with no time ("เตือนได้ไหม", "remind me what you said") is not a request.
// The subject is what is left once the time words, the verb and the scaffolding around it (ช่วย, ให้, ว่า, เรื่อง,
// ทุกคน, ด้วย, หน่อย, นะ, ครับ/ค่ะ; to, about, please…) are cut; it may be empty. Known loss: a subject that itself
// starts with ให้ ("เตือนให้อาหารแมว") loses it.

export interface ReminderRequest {
  subject: string;
  when: WhenResult;
}

const thaiVerb = /(?:ช่วย\s?)?(?:ตั้ง\s?(?:การ\s?)?(?:แจ้ง\s?)?เตือน|แจ้งเตือน|เตือน)(?:\s?ความจำ)?/g;
const englishVerb =
  /\b(?:please\s+)?(?:remind\s+(?:me|us|everyone|everybody|all\s+of\s+us|all|them|the\s+(?:group|team|channel))\b|(?:set|create|add|make)\s+(?:me\s+)?(?:a\s+|an\s+)?reminder\b|reminder\s?:)/g;
const notAVerbBefore = ['คำ', 'การ', 'ตัก', 'ข้อ', 'ระบบ', 'สัญญาณ', 'อย่า', 'ไม่ต้อง', 'ไม่', "don't ", 'do not ', 'never '];
const notAVerbAfter = ['ใจ', 'ภัย', 'สติ', 'ตัวเอง'];
const alwaysQuestions = /ทำไม|ยังไง|อย่างไร|หรือเปล่า|รึเปล่า|\bwhy\b|\bhow\b/;
const softQuestions = /ไหม|มั้ย|หรือ|\?|\bcan you\b|\bcould you\b/;
const recallQuestion = /^\s*(?:what|who|how|why|where|which|when|whether|if|of)\b/;

const dropWords = new Set([
  ...['ช่วย', 'ด้วย', 'หน่อย', 'นะ', 'ครับ', 'คับ', 'ค่ะ', 'คะ', 'จ้า', 'จ้ะ', 'ให้', 'ว่า', 'เรื่อง', 'ตอน', 'เวลา', 'ที', 'ทุกคน', 'พวกเรา', 'เรา', 'ฉัน'],
  ...['ผม', 'หนู', 'กลุ่ม', 'ได้ไหม', 'ได้มั้ย', 'ไหม', 'มั้ย', 'เลย', 'to', 'about', 'that', 'of', 'for', 'please', 'pls', 'me', 'us', 'and'],
  ...['then', 'at', 'on', 'by', 'in', 'thanks', 'thank', 'you', 'ok', 'okay', 'everyone', 'everybody'],
]);
// Not ที or คะ: they begin real words (ทีม, คะแนน).
const thaiPrefixes = ['ช่วย', 'ให้', 'ว่า', 'เรื่อง', 'ทุกคน', 'พวกเรา', 'ด้วย', 'หน่อย', 'นะ', 'ครับ', 'คับ', 'ค่ะ', 'จ้า'];
const thaiSuffixes = ['ครับ', 'คับ', 'ค่ะ', 'คะ', 'จ้า', 'จ้ะ', 'จ๊ะ', 'นะ', 'ด้วย', 'หน่อย', 'ได้ไหม', 'ได้มั้ย', 'ไหม', 'มั้ย', 'ให้', 'ตอน', 'เวลา', 'ทุกคน', 'พวกเรา'];
const punctuation = new Set([...',.;:!?"\'()[]-–—…']);

/** Punctuation cut from both ends of a word, by a loop (a `[…]+$` regex is quadratic on a long run of marks). */
function withoutEdgePunctuation(word: string): string {
  let start = 0;
  let end = word.length;
  while (start < end && punctuation.has(word.charAt(start))) start += 1;
  while (end > start && punctuation.has(word.charAt(end - 1))) end -= 1;
  return word.slice(start, end);
}

interface Verb {
  start: number;
  end: number;
}

export function parseReminderRequest(text: string, context: WhenContext): ReminderRequest | undefined {
  try {
    return read(text, context);
  } catch {
    return undefined;
  }
}

function read(text: string, context: WhenContext): ReminderRequest | undefined {
  if (typeof text !== 'string') return undefined;
  const prepared = prepareText(text);
  const source = prepared.text;
  const verb = findVerb(source);
  if (!verb) return undefined;
  if (alwaysQuestions.test(source)) return undefined;
  const { result: when, pieces } = readWhen(text, context);
  const opens = source.slice(0, verb.start).trim() === '';
  if (when.kind === 'none') {
    if (!opens || softQuestions.test(source) || recallQuestion.test(source.slice(verb.end))) return undefined;
  }
  const cut = [...pieces, originalSpan(prepared, verb.start, verb.end)];
  return { subject: subjectOf(text.slice(0, prepared.ends[prepared.ends.length - 1] ?? 0), cut), when };
}

function findVerb(source: string): Verb | undefined {
  for (const regex of [thaiVerb, englishVerb]) {
    for (const match of source.matchAll(regex)) {
      const start = match.index;
      const end = start + match[0].length;
      const before = source.slice(Math.max(0, start - 12), start).trimEnd();
      if (notAVerbBefore.some((word) => before.endsWith(word.trimEnd()))) continue;
      if (notAVerbAfter.some((word) => source.startsWith(word, end))) continue;
      return { start, end };
    }
  }
  return undefined;
}

/** The text with the spans cut, its words stripped of scaffolding at both ends. */
export function subjectOf(text: string, cut: readonly TextSpan[]): string {
  let kept = '';
  let at = 0;
  for (const span of [...cut].sort((a, b) => a.start - b.start)) {
    if (span.start > at) kept += text.slice(at, span.start);
    kept += ' ';
    at = Math.max(at, span.end);
  }
  kept += text.slice(at);
  const words = kept
    .split(/\s+/)
    .map(withoutEdgePunctuation)
    .filter((word) => word !== '');
  let changed = true;
  while (changed && words.length > 0) {
    changed = trimEnd(
      words,
      0,
      thaiPrefixes,
      (word, affix) => word.startsWith(affix),
      (word, affix) => word.slice(affix.length),
    );
    changed =
      trimEnd(
        words,
        words.length - 1,
        thaiSuffixes,
        (word, affix) => word.endsWith(affix),
        (word, affix) => word.slice(0, -affix.length),
      ) || changed;
  }
  return words.join(' ');
}

/** Drops a scaffolding word at `index`, or one affix of it; true when something went. */
function trimEnd(
  words: string[],
  index: number,
  affixes: readonly string[],
  has: (word: string, affix: string) => boolean,
  without: (word: string, affix: string) => string,
): boolean {
  const word = words[index];
  if (word === undefined) return false;
  if (dropWords.has(word.toLowerCase())) {
    words.splice(index, 1);
    return true;
  }
  const affix = affixes.find((candidate) => has(word, candidate) && word.length > candidate.length);
  if (!affix) return false;
  const rest = withoutEdgePunctuation(without(word, affix));
  if (rest === '') words.splice(index, 1);
  else words[index] = rest;
  return true;
}
