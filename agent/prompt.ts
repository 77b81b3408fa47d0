import { z } from 'zod';
import type { Localized } from '../src/shared/i18n.js';
import type { Language, ModelCapabilities } from '../src/shared/types.js';
import type { HistoryPair } from './history.js';
import type { ChatCompletionMessageParam, ChatCompletionTool } from './model/index.js';
import type { AnyTool } from './tools/tool.js';

// Prompt layout for the server's prompt cache, which re-reads everything after the first changed byte: the system
// prompt and the tools array are built once and are byte-identical on every call for a given capability set (and
// space: its language and instructions); everything that changes per turn (date, speaker, retrieved passages) goes
// into the newest user message only.

const identity: Localized = {
  th: [
    'คุณคือ "{botName}" (แสง) ผู้ช่วย AI ที่ตอบเป็นภาษาไทยเป็นหลัก',
    'ตอบเป็นภาษาเดียวกับคำถาม (ค่าเริ่มต้นคือภาษาไทย) ให้กระชับ ถูกต้อง และตรงประเด็น',
    'อย่าแต่งตัวเลข วันที่ หรือข้อเท็จจริงที่ไม่มีข้อมูลรองรับ ถ้าไม่ทราบให้บอกตรง ๆ',
  ].join('\n'),
  en: [
    'You are "{botName}" (แสง), an AI assistant.',
    "Answer in the user's language, concisely, correctly and to the point.",
    'Never invent figures, dates or facts you have no support for; say so when you do not know.',
  ].join('\n'),
};

const withTools: Localized = {
  th: [
    'คุณเรียกใช้เครื่องมือได้ เรียกเครื่องมือเมื่อคำถามต้องการข้อมูลที่คุณไม่มี และอย่าเรียกเครื่องมือเดิมด้วยค่าเดิมซ้ำ',
    'ไม่ต้องพิมพ์ URL หรือรายการแหล่งที่มาเอง ระบบจะแนบแหล่งที่มาให้โดยอัตโนมัติ',
  ].join('\n'),
  en: [
    'You can call tools. Call a tool when the question needs information you do not have; never repeat the same call.',
    'Do not type URLs or a source list yourself: sources are appended automatically.',
  ].join('\n'),
};

const withoutTools: Localized = {
  th: 'ถ้าข้อความของผู้ใช้มีข้อความอ้างอิงแนบมา ให้ตอบจากข้อความอ้างอิงนั้นเป็นหลัก และไม่ต้องพิมพ์ URL เอง',
  en: 'When the user message includes reference passages, answer from them first, and do not type URLs yourself.',
};

// A space that chose its language (/settings language): right after "answer in the question's language", so the
// model reads the space's choice as the rule that decides.
const fixedLanguage: Localized = {
  th: 'ตอบเป็นภาษาไทยเสมอ แม้คำถามจะเป็นภาษาอื่น เว้นแต่ผู้ใช้ขอภาษาอื่นหรือขอให้แปล',
  en: 'Always answer in English, even when the question is in another language, unless the user asks for another language or a translation.',
};

// A group's own instructions come last and are labelled as theirs: the bot's rules above still win.
const spaceInstructionsHeading: Localized = {
  th: 'คำแนะนำเพิ่มเติมจากผู้ดูแลกลุ่มนี้ (ทำตามได้ตราบที่ไม่ขัดกับกฎข้างบน):',
  en: "Extra instructions from this group's admins (follow them as long as they do not conflict with the rules above):",
};

export interface SystemPromptOptions {
  botName: string;
  language: Language;
  capabilities: ModelCapabilities;
  /** Extra policy paragraphs from registered tools (e.g. the knowledge-base policy), in a stable order. */
  toolPolicies: readonly string[];
  /** The space chose `language`: answer in it even to a question in another language (TurnInput.languageFixed). */
  languageFixed?: boolean;
  /** A space's own persona instructions (TurnInput.spaceInstructions), already bounded, scanned and neutralized. */
  spaceInstructions?: string;
}

/** Deterministic in its options: the same space gets the same bytes on every turn (the server's prompt cache). */
export function buildSystemPrompt(options: SystemPromptOptions): string {
  let persona = identity[options.language].replace('{botName}', options.botName);
  if (options.languageFixed) persona = `${persona}\n${fixedLanguage[options.language]}`;
  const parts = [persona];
  if (options.capabilities.tools) parts.push(withTools[options.language], ...options.toolPolicies);
  else parts.push(withoutTools[options.language]);
  // Last, after every rule of the bot's own: they shape the persona, never the rules (the guards still run after).
  const instructions = options.spaceInstructions?.trim();
  if (instructions) parts.push(`${spaceInstructionsHeading[options.language]}\n${instructions}`);
  return parts.join('\n\n');
}

/** The OpenAI `tools` array, in registration order, serialized once. */
export function buildToolDefinitions(tools: readonly AnyTool[]): ChatCompletionTool[] {
  return tools.map((tool) => {
    const { $schema: _ignored, ...parameters } = z.toJSONSchema(tool.input, { io: 'input' }) as Record<string, unknown>;
    return { type: 'function', function: { name: tool.name, description: tool.description, parameters } };
  });
}

const weekdayAndMonth = (date: Date, timeZone: string, locale: string) =>
  new Intl.DateTimeFormat(`${locale}-u-ca-gregory-nu-latn`, { timeZone, weekday: 'long', day: 'numeric', month: 'long' }).format(date);

function zonedParts(date: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US-u-ca-gregory-nu-latn', {
    timeZone,
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(date);
  const value = (type: string) => parts.find((part) => part.type === type)?.value ?? '';
  return { year: Number(value('year')), time: `${value('hour')}:${value('minute')}` };
}

/** The date/time line of the newest user message, with both the CE and the Buddhist-Era year. */
export function buildDateLine(date: Date, timeZone: string, language: Language): string {
  const { year, time } = zonedParts(date, timeZone);
  const buddhistYear = year + 543;
  if (language === 'th') {
    return `[วันเวลาปัจจุบัน: ${weekdayAndMonth(date, timeZone, 'th-TH')} พ.ศ. ${buddhistYear} (ค.ศ. ${year}) เวลา ${time} น. (${timeZone})]`;
  }
  return `[Current date and time: ${weekdayAndMonth(date, timeZone, 'en-GB')} ${year} (B.E. ${buddhistYear}), ${time} (${timeZone})]`;
}

const speakerLabel: Localized = { th: 'ผู้ถาม', en: 'Speaker' };

/** The stored part of the newest user message: date line, speaker (groups only) and the question. */
export function buildUserContent(options: { dateLine: string; speakerName?: string; question: string; language: Language }): string {
  const lines = [options.dateLine];
  if (options.speakerName) lines.push(`${speakerLabel[options.language]}: ${options.speakerName}`);
  lines.push(options.question);
  return lines.join('\n');
}

/** An earlier user message as it was sent: the stored part, then the naive-RAG passages it still keeps. */
export function sentQuestion(pair: HistoryPair): string {
  return pair.passages ? `${pair.question}\n\n${pair.passages.text}` : pair.question;
}

export function historyMessages(pairs: readonly HistoryPair[]): ChatCompletionMessageParam[] {
  return pairs.flatMap((pair): ChatCompletionMessageParam[] => [
    { role: 'user', content: sentQuestion(pair) },
    { role: 'assistant', content: pair.answer },
  ]);
}
