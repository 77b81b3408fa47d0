import type { Localized } from '../../src/shared/i18n.js';
import { pick, say } from '../../src/shared/i18n.js';
import type { Language, ToolCallRecord, TurnRecord } from '../../src/shared/types.js';
import { canonicalArguments } from './repeat-call.js';
import { stripSourceMarkers } from '../../src/shared/source-markers.js';

// The answer built from the tool log when the model gave none (step limit, cut stream, stock refusal): what was
// looked up and what was found, in the turn's language. Sources are appended afterwards by the sources guard;
// the looked-up text is shown in code spans so that the numbers guard does not treat a query as a claim.

const toolLabels: Record<string, Localized> = {
  web_search: { th: 'ค้นเว็บ', en: 'Web search' },
  query_knowledge: { th: 'ค้นคลังความรู้', en: 'Knowledge base search' },
  deep_research: { th: 'ค้นคว้าเชิงลึก', en: 'Deep research' },
  read_image: { th: 'อ่านรูปภาพ', en: 'Image reading' },
  read_file: { th: 'อ่านไฟล์', en: 'File read' },
  write_file: { th: 'บันทึกไฟล์', en: 'File write' },
  list_files: { th: 'ดูรายการไฟล์', en: 'File list' },
};
const texts = {
  nothing: {
    th: 'ขออภัย ครั้งนี้ยังตอบคำถามนี้ไม่ได้ กรุณาถามใหม่อีกครั้ง หรือถามให้เจาะจงขึ้น',
    en: 'Sorry, I could not answer this time. Please ask again, or more specifically.',
  },
  partial: {
    th: 'ขออภัย ยังสรุปคำตอบได้ไม่ครบ แต่นี่คือสิ่งที่ค้นพบระหว่างทาง:',
    en: 'Sorry, I could not finish the answer, but this is what I found along the way:',
  },
  allFailed: {
    th: 'ขออภัย ยังหาคำตอบไม่ได้ เพราะเครื่องมือที่ใช้ทำงานไม่สำเร็จ:',
    en: 'Sorry, I could not find the answer because the tools I used failed:',
  },
  failed: { th: 'ไม่สำเร็จ', en: 'failed' },
  empty: { th: 'ไม่พบข้อมูล', en: 'nothing found' },
} satisfies Record<string, Localized>;

const queryKeys = ['query', 'query_text', 'question', 'topic', 'name', 'path', 'url', 'action'];
const maxLines = 4;
const maxLineLength = 200;

function lookedUp(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  for (const key of queryKeys) {
    const value: unknown = Reflect.get(args, key);
    if (typeof value === 'string' && value.trim() !== '') return value.replace(/[`\n]/g, ' ').trim().slice(0, 80);
  }
  return undefined;
}

/** The first few meaningful lines of a tool result, without source markers. */
function excerpt(result: string): string[] {
  return stripSourceMarkers(result.slice(0, 8000))
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('⚠️'))
    .slice(0, maxLines)
    .map((line) => (line.length > maxLineLength ? `${line.slice(0, maxLineLength - 1)}…` : line));
}

/** One entry per distinct call (repeats and blocked repeats add nothing). */
function distinctCalls(calls: readonly ToolCallRecord[]): ToolCallRecord[] {
  const seen = new Set<string>();
  return calls.filter((call) => {
    const key = `${call.name}\u0000${canonicalArguments(call.args ?? call.argumentsText)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function describeCall(call: ToolCallRecord, language: Language): string {
  const known = toolLabels[call.name];
  const label = known ? pick(known, language) : call.name;
  const query = lookedUp(call.args);
  const head = `• ${label}${query ? ` \`${query}\`` : ''}`;
  if (!call.ok) {
    const reason = excerpt(call.result)[0];
    return `${head}: ${pick(texts.failed, language)}${reason ? ` (${reason})` : ''}`;
  }
  const lines = excerpt(call.result);
  if (lines.length === 0) return `${head}: ${pick(texts.empty, language)}`;
  return `${head}:\n${lines.map((line) => `  ${line}`).join('\n')}`;
}

export function answerFromToolLog(record: TurnRecord): string {
  const calls = distinctCalls(record.toolCalls);
  const language = record.language;
  if (calls.length === 0) return say(texts.nothing, language);
  const intro = calls.some((call) => call.ok) ? texts.partial : texts.allFailed;
  return [pick(intro, language), ...calls.map((call) => describeCall(call, language))].join('\n\n');
}
