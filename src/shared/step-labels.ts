import { pick, say, type Localized } from './i18n.js';
import type { Language, TurnStep } from './types.js';

// The words for what a running turn is doing: the console's status line (with how long), and the status a live
// answer shows in its message while a tool runs (`stepStatusText`).

const toolLabels = new Map<string, Localized>([
  ['query_knowledge', { th: 'ค้นฐานความรู้', en: 'searching the knowledge base' }],
  ['web_search', { th: 'ค้นเว็บ', en: 'searching the web' }],
  ['deep_research', { th: 'ค้นคว้าเชิงลึก', en: 'researching' }],
  ['read_image', { th: 'อ่านรูป', en: 'reading an image' }],
  ['read_file', { th: 'อ่านไฟล์', en: 'reading a file' }],
  ['write_file', { th: 'เขียนไฟล์', en: 'writing a file' }],
  ['list_files', { th: 'ดูรายชื่อไฟล์', en: 'listing files' }],
  ['fetch', { th: 'เปิดหน้าเว็บ', en: 'opening a web page' }],
  ['fetch_url', { th: 'เปิดหน้าเว็บ', en: 'opening a web page' }],
]);

const thinking: Localized = { th: 'กำลังคิด…', en: 'Thinking…' };
const thinkingFor: Localized = { th: 'กำลังคิด… {seconds} วิ', en: 'Thinking… {seconds} s' };
const doing: Localized = { th: 'กำลังคิด… {step}', en: 'Thinking… {step}' };
const doingFor: Localized = { th: 'กำลังคิด… {step} ({seconds} วิ)', en: 'Thinking… {step} ({seconds} s)' };

/** Longest tool name shown: the name comes from the model, so it is bounded and stripped of control characters. */
const maxToolNameChars = 40;

/** A tool's short label; an unknown tool shows its own name (never terminal control characters). */
export function toolLabel(tool: string, language: Language): string {
  const known = toolLabels.get(tool);
  if (known) return pick(known, language);
  // eslint-disable-next-line no-control-regex -- removing them is the point
  return tool.slice(0, maxToolNameChars).replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
}

/** `กำลังคิด… 4 วิ` / `กำลังคิด… ค้นฐานความรู้ (7 วิ)`; seconds from the turn's start, left out under one. */
export function statusText(step: TurnStep, seconds: number, language: Language): string {
  if (step.kind === 'model') return seconds < 1 ? pick(thinking, language) : say(thinkingFor, language, { seconds });
  const label = toolLabel(step.tool, language);
  return seconds < 1 ? say(doing, language, { step: label }) : say(doingFor, language, { step: label, seconds });
}

const liveThinking: Localized = { th: 'กำลังคิด…', en: 'Thinking…' };
const liveDoing: Localized = { th: 'กำลัง{step}…', en: '{step}…' };

/** What a live answer shows while a step runs: `กำลังค้นเว็บ…`, `กำลังคิด…`. */
export function stepStatusText(step: TurnStep, language: Language): string {
  if (step.kind === 'model') return pick(liveThinking, language);
  const label = toolLabel(step.tool, language);
  return say(liveDoing, language, { step: language === 'en' ? label.charAt(0).toUpperCase() + label.slice(1) : label });
}
