import { afterEach, describe, expect, it } from 'vitest';
import { applySources } from '../../../agent/guards/sources.js';
import { naiveRagContext, type KnowledgeStore, type RetrievalHit } from '../../../src/knowledge/index.js';
import { sourceMarker } from '../../../src/shared/source-markers.js';
import type { TurnRecord } from '../../../src/shared/types.js';
import { seededStore } from '../../support/knowledge/seeded-store.js';
import { toolCall, turnRecord } from '../../support/turn-record.js';

// Which knowledge-base passages the source list names: only those the answer used. The naive records are built
// from the real naive-RAG block (naiveRagContext), so the guard reads the format the model was given.

const leave = 'พนักงานประจำลาพักร้อนได้ 12 วันต่อปี โดยต้องแจ้งหัวหน้างานล่วงหน้าอย่างน้อย 3 วันทำการ';
const overtime = 'การทำงานล่วงเวลาต้องได้รับอนุมัติจากผู้จัดการฝ่ายก่อนเริ่มงาน และเบิกค่าตอบแทนได้ภายในเดือนถัดไป';
const password = 'ถ้าไม่ทราบรหัสผ่านอีเมล ให้ติดต่อฝ่ายไอทีที่ชั้นสาม';
const leaveLabel = 'คู่มือ › leave.md';
const overtimeLabel = 'คู่มือ › overtime.md';
const passwordLabel = 'คู่มือ › it.md';

function hit(documentTitle: string, text: string, score: number): RetrievalHit {
  return { knowledgeBaseId: 'kb-1', knowledgeBaseName: 'คู่มือ', documentId: documentTitle.length, documentTitle, chunkId: 1, position: 0, text, score };
}

const stores: KnowledgeStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

/** A naive-RAG turn: the block naiveRagContext builds from these hits, in the record as agent.ts puts it. */
async function naiveRecord(question: string, hits: RetrievalHit[], language: 'th' | 'en' = 'th'): Promise<TurnRecord> {
  const { store } = await seededStore();
  stores.push(store);
  const fixed: KnowledgeStore = { ...store, boundKnowledgeBaseIds: async () => ['kb-1'], search: async () => hits };
  const context = await naiveRagContext(fixed, 'console:test', question, { language });
  if (!context) throw new Error('no passages');
  return turnRecord({
    question,
    language,
    rag: 'naive',
    capabilities: { tools: false, vision: false },
    contextPassages: [context.text],
    citations: context.citations,
  });
}

const twoPassages = [hit('leave.md', leave, 10), hit('overtime.md', overtime, 9)];

describe('naive RAG: the source list names only the passages the answer used', () => {
  it('the naive block puts a source marker after every passage', async () => {
    const record = await naiveRecord('ลาพักร้อนได้กี่วัน', twoPassages);
    expect(record.contextPassages[0]).toContain(`${leave}\n${sourceMarker(leaveLabel)}\n\n[2] ${overtimeLabel}\n${overtime}\n${sourceMarker(overtimeLabel)}`);
    expect(record.citations).toEqual([{ label: leaveLabel }, { label: overtimeLabel }]);
  });

  it.each([
    ['Thai "ไม่พบข้อมูล…"', 'ขออภัยครับ ไม่พบข้อมูลเกี่ยวกับการลาบวชในเอกสารที่มี แนะนำให้สอบถามหัวหน้างานโดยตรง'],
    ['Thai "ไม่มีข้อมูลเกี่ยวกับ…"', 'ในคลังความรู้ไม่มีข้อมูลเกี่ยวกับการลาบวชครับ'],
    ['Thai "ไม่ทราบ" (the system prompt\'s "say so")', 'ไม่ทราบครับ เอกสารพูดถึงแค่ลาพักร้อนกับงานล่วงเวลา'],
    ['English "I couldn\'t find…"', 'I couldn’t find anything about ordination leave in the documents.'],
  ])('an answer that says it found nothing has no source list: %s', async (_name, answer) => {
    const record = await naiveRecord('ลาบวชได้กี่วัน', twoPassages);
    const result = applySources(answer, record);
    expect(result.text).toBe(answer);
    expect(result.citations).toEqual([]);
    expect(result.events).toEqual([expect.objectContaining({ guard: 'sources', action: 'rewrite', reason: expect.stringContaining('nothing was found') })]);
  });

  it('lists only the passage the answer shares content with', async () => {
    const record = await naiveRecord('ลาพักร้อนได้กี่วัน', twoPassages);
    const answer = 'ลาพักร้อนได้ปีละสิบสองวัน ต้องแจ้งหัวหน้างานล่วงหน้าครับ';
    const result = applySources(answer, record);
    expect(result.text).toBe(`${answer}\n\n**แหล่งที่มา**\n1. ${leaveLabel}`);
    expect(result.citations).toEqual([{ label: leaveLabel }]);
    expect(result.events.map((event) => event.reason)).toEqual(['1 knowledge-base source(s) the answer shares no content with: not listed']);
  });

  it('a shared figure alone is enough', async () => {
    const record = await naiveRecord('ลาพักร้อนได้กี่วัน', twoPassages);
    const result = applySources('ได้ ๑๒ วันครับ', record);
    expect(result.citations).toEqual([{ label: leaveLabel }]);
  });

  it('keeps both when the answer uses both', async () => {
    const record = await naiveRecord('ลาพักร้อนกับโอที', twoPassages);
    const answer = 'ต้องแจ้งหัวหน้างานล่วงหน้า 3 วันทำการ ส่วนงานล่วงเวลาต้องให้ผู้จัดการฝ่ายอนุมัติก่อนครับ';
    expect(applySources(answer, record).citations).toEqual([{ label: leaveLabel }, { label: overtimeLabel }]);
  });

  it("an answer from the model's own knowledge, or one that only restates the question, has no source list", async () => {
    const record = await naiveRecord('พนักงานประจำลาพักร้อนได้กี่วัน', twoPassages);
    for (const answer of ['โดยทั่วไปกฎหมายแรงงานกำหนดให้ลูกจ้างมีวันหยุดพักผ่อนประจำปี', 'พนักงานประจำลาพักร้อนได้ตามที่บริษัทกำหนดครับ']) {
      const result = applySources(answer, record);
      expect(result.text).toBe(answer);
      expect(result.citations).toEqual([]);
    }
  });

  it('a "not known" phrase quoted from the passage is no "found nothing"', async () => {
    const record = await naiveRecord('ลืมรหัสผ่านอีเมลทำอย่างไร', [hit('it.md', password, 5)]);
    const answer = 'ถ้าไม่ทราบรหัสผ่าน ให้ติดต่อฝ่ายไอทีที่ชั้นสามครับ';
    expect(applySources(answer, record).text).toBe(`${answer}\n\n**แหล่งที่มา**\n1. ${passwordLabel}`);
  });

  it('English turns: same rule, English heading', async () => {
    const english = 'Permanent staff get 12 days of annual leave and must tell their supervisor three working days ahead.';
    const record = await naiveRecord('How much annual leave do I get?', [hit('leave.md', english, 5), hit('overtime.md', overtime, 4)], 'en');
    const answer = 'You get 12 days a year; tell your supervisor ahead of time.';
    expect(applySources(answer, record).text).toBe(`${answer}\n\n**Sources**\n1. ${leaveLabel}`);
    expect(applySources('I could not find that in the documents.', record).citations).toEqual([]);
  });
});

describe('agentic: query_knowledge passages follow the same rule; web citations are left alone', () => {
  const knowledgeResult = [
    'ข้อความจากคลังความรู้สำหรับ "ลา" (2 ส่วน):',
    '',
    `[1] ${leave}\n${sourceMarker(leaveLabel)}`,
    '',
    `[2] ${overtime}\n${sourceMarker(overtimeLabel)}`,
  ].join('\n');
  const knowledge = toolCall({ name: 'query_knowledge', result: knowledgeResult, citations: [{ label: leaveLabel }, { label: overtimeLabel }] });
  const web = toolCall({
    name: 'web_search',
    result: 'Labour law — annual leave [source: https://labour.example.org/leave]',
    citations: [{ label: 'Labour law', url: 'https://labour.example.org/leave' }],
  });

  it('a found-nothing answer drops the knowledge-base passages but keeps the web result', () => {
    const result = applySources('ไม่พบข้อมูลเรื่องลาบวชในคลังความรู้ครับ', turnRecord({ question: 'ลาบวชได้กี่วัน', toolCalls: [knowledge, web] }));
    expect(result.citations).toEqual([{ label: 'Labour law', url: 'https://labour.example.org/leave' }]);
  });

  it('lists only the passage used', () => {
    const result = applySources('ต้องให้ผู้จัดการฝ่ายอนุมัติก่อนเริ่มงานครับ', turnRecord({ question: 'ทำโอทีต้องทำอย่างไร', toolCalls: [knowledge] }));
    expect(result.text).toBe(`ต้องให้ผู้จัดการฝ่ายอนุมัติก่อนเริ่มงานครับ\n\n**แหล่งที่มา**\n1. ${overtimeLabel}`);
  });
});
