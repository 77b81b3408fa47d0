import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../src/commands/command.js';
import { createStatusCommand, type StatusReport } from '../../../src/commands/status.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { Language } from '../../../src/shared/types.js';
import { inboundMessage } from '../../support/inbound-message.js';

// /status in Thai says every bracketed tag in Thai (how a capability was decided, what server answered, the RAG
// mode); in English the same report keeps its English words.

function report(overrides: Partial<StatusReport> = {}): StatusReport {
  return {
    baseUrl: 'http://127.0.0.1:8080/v1',
    model: 'qwen3.5-2b',
    server: 'llama-server',
    healthy: true,
    capabilities: { tools: true, vision: false },
    capabilitySources: { tools: 'declared', vision: 'default' },
    rag: 'agentic',
    tools: ['query_knowledge', 'web_search'],
    readsAllGroupMessages: undefined,
    platformLines: [],
    ocr: { available: true, engine: 'tesseract', version: '5.3.4', languages: 'tha+eng' },
    webSearch: true,
    ...overrides,
  };
}

async function status(language: Language, overrides: Partial<StatusReport> = {}): Promise<string> {
  const command = createStatusCommand(async () => report(overrides), {
    language: 'th',
    names: ['แสง'],
    groupContext: 10,
    quotaPerMinute: 10,
    streams: () => true,
  });
  const context: CommandContext = {
    message: inboundMessage({ text: '/status' }),
    language,
    isGlobalAdmin: false,
    log: silentLogger(),
    now: () => new Date(0),
    progress: () => undefined,
    download: async () => new Uint8Array(),
  };
  return (await command.run({ name: 'status', rest: '', words: [] }, context)).text;
}

const englishTags = /\((?:config|declared|probe|refusal|default|unreachable|generic)\)|\bagentic\b|\bnaive\b/;

describe('/status tags', () => {
  it.each([
    ['config', 'ตั้งค่าไว้'],
    ['declared', 'เซิร์ฟเวอร์แจ้งไว้'],
    ['probe', 'ตรวจพบ'],
    ['refusal', 'เซิร์ฟเวอร์ปฏิเสธ'],
    ['default', 'ค่าเริ่มต้น'],
  ])('capability source %s → (%s) in Thai, as it is in English', async (source, thai) => {
    const overrides = { capabilitySources: { tools: source, vision: source } };
    const text = await status('th', overrides);
    expect(text).toContain(`- เรียกเครื่องมือได้: ได้ (${thai})`);
    expect(text).toContain(`- โมเดลมองเห็นรูปภาพ: ไม่ได้ (${thai})`);
    expect(text).not.toMatch(englishTags);
    const english = await status('en', overrides);
    expect(english).toContain(`- Tool calling: yes (${source})`);
    expect(english).toContain(`- Vision: no (${source})`);
  });

  it('an unreachable server and an unknown one are tagged in Thai; product names stay', async () => {
    const unreachable = await status('th', { server: 'unreachable', healthy: false });
    expect(unreachable).toContain('- เซิร์ฟเวอร์โมเดล: ที่อยู่แสดงเฉพาะผู้ดูแล (ติดต่อไม่ได้) — ติดต่อไม่ได้');
    expect(unreachable).not.toMatch(englishTags);
    expect(await status('th', { server: 'generic' })).toContain('(ไม่ทราบชนิด) — ทำงานปกติ');
    expect(await status('th')).toContain('(llama-server) — ทำงานปกติ');
    expect(await status('en', { server: 'unreachable', healthy: false })).toContain('(unreachable) — unreachable');
    expect(await status('en', { server: 'generic' })).toContain('(generic) — healthy');
  });

  it('names the RAG mode in Thai words', async () => {
    expect(await status('th', { rag: 'agentic' })).toContain('- โหมดค้นคืนความรู้ (RAG) ในห้องนี้: โมเดลค้นเองเมื่อต้องใช้ (เรียก query_knowledge)');
    expect(await status('th', { rag: 'naive' })).toContain('- โหมดค้นคืนความรู้ (RAG) ในห้องนี้: ค้นให้อัตโนมัติทุกคำถาม');
    expect(await status('en', { rag: 'naive' })).toContain('- Knowledge retrieval (RAG) here: naive (retrieval on every question)');
  });

  it('shows a tag it does not know as it is', async () => {
    expect(await status('th', { capabilitySources: { tools: 'future-kind', vision: 'config' } })).toContain('(future-kind)');
  });
});

describe('/status OCR line', () => {
  it('says in Thai why OCR is off and what to install, with no English diagnostic text', async () => {
    const missing = await status('th', {
      ocr: { available: false, reason: 'missing-languages', detail: 'language data missing: tha', missingLanguages: ['tha', 'chi_sim'] },
    });
    expect(missing).toContain(
      'อ่านตัวหนังสือในรูป (OCR): ไม่ได้ — ยังไม่ได้ติดตั้งข้อมูลภาษา tha, chi_sim (ติดตั้ง: sudo apt-get install tesseract-ocr-tha tesseract-ocr-chi-sim)',
    );
    const absent = await status('th', { ocr: { available: false, reason: 'not-installed', detail: 'tesseract is not installed (no tesseract)' } });
    expect(absent).toContain('ไม่พบโปรแกรม tesseract');
    expect(absent).not.toContain('is not installed');
    const english = await status('en', { ocr: { available: false, reason: 'not-installed', detail: 'tesseract is not installed' } });
    expect(english).toContain('no — tesseract is not installed (install: sudo apt-get install tesseract-ocr tesseract-ocr-tha, or set TESSERACT_PATH)');
  });
});
