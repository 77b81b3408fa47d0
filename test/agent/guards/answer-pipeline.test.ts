import { describe, expect, it } from 'vitest';
import { runAnswerGuards, writeClaimStep } from '../../../agent/guards/index.js';
import { fake } from '../../support/fake-tokens.js';
import { toolCall, turnRecord } from '../../support/turn-record.js';

const search = toolCall({
  name: 'web_search',
  args: { query: 'ราคาทองวันนี้' },
  result: 'ทองคำแท่งขายออกบาทละ 41,050 บาท เพิ่มขึ้น 0.52% [source: https://www.goldtraders.or.th/]',
});

describe('runAnswerGuards', () => {
  it('passes a clean answer and appends its sources', () => {
    const result = runAnswerGuards(turnRecord({ toolCalls: [search], finalText: 'ราคาทองคำแท่งวันนี้ขายออกบาทละ 41,050 บาท' }), { secrets: [] });
    expect(result).toEqual({
      text: 'ราคาทองคำแท่งวันนี้ขายออกบาทละ 41,050 บาท\n\n**แหล่งที่มา**\n1. https://www.goldtraders.or.th/',
      answer: 'ราคาทองคำแท่งวันนี้ขายออกบาทละ 41,050 บาท\n\n**แหล่งที่มา**\n1. https://www.goldtraders.or.th/',
      citations: [{ label: 'https://www.goldtraders.or.th/', url: 'https://www.goldtraders.or.th/' }],
      events: [],
      blocked: false,
    });
  });

  it('runs refusal → numbers → sources in order and records each rewrite', () => {
    const record = turnRecord({ toolCalls: [search], finalText: "I'm sorry, but I can't browse the internet." });
    const result = runAnswerGuards(record, { secrets: [] });
    expect(result.text).toMatch(/^ขออภัย ยังสรุปคำตอบได้ไม่ครบ/);
    expect(result.text).toMatch(/41,050 บาท/);
    expect(result.text).toMatch(/\*\*แหล่งที่มา\*\*\n1\. https:\/\/www\.goldtraders\.or\.th\/$/);
    expect(result.events.map((event) => `${event.guard}:${event.action}`)).toEqual(['refusal:rewrite']);
  });

  it('marks an invented figure and drops an invented URL', () => {
    const record = turnRecord({ toolCalls: [search], finalText: 'ราคาขึ้น 3% ดูที่ https://fake.example.com/gold' });
    const result = runAnswerGuards(record, { secrets: [] });
    expect(result.text.split('\n\n')[0]).toBe('ราคาขึ้น [ตัวเลขยังไม่ยืนยัน] ดูที่');
    expect(result.events.map((event) => event.guard)).toEqual(['numbers', 'sources']);
  });

  it('blocks the whole answer on a credential, last, and never puts the secret in an event', () => {
    const token = fake.githubClassic();
    const record = turnRecord({ toolCalls: [search], finalText: `โทเค็นคือ ${token}` });
    const result = runAnswerGuards(record, { secrets: [] });
    expect(result.blocked).toBe(true);
    expect(result.citations).toEqual([]);
    expect(result.text).toMatch(/ถูกระงับ/);
    expect(result.events.at(-1)).toMatchObject({ guard: 'dlp', action: 'block' });
    expect(JSON.stringify(result.events)).not.toContain(token);
  });

  it('blocks a configured secret that a tool result leaked into the answer', () => {
    const record = turnRecord({ language: 'en', finalText: 'The value is my-line-secret-123' });
    expect(runAnswerGuards(record, { secrets: ['my-line-secret-123'] }).text).toMatch(/blocked/);
  });

  it('answers from the tool log at the step limit', () => {
    const result = runAnswerGuards(turnRecord({ toolCalls: [search], finalText: '', stopReason: 'step-limit' }), { secrets: [] });
    expect(result.text).toMatch(/• ค้นเว็บ `ราคาทองวันนี้`:\n {2}ทองคำแท่งขายออกบาทละ 41,050 บาท เพิ่มขึ้น 0\.52%/);
    expect(result.events[0]).toMatchObject({ guard: 'refusal', action: 'rewrite' });
  });

  it('fills an empty answer before the other guards: the tool log, or an apology when no tool ran', () => {
    const cut = runAnswerGuards(turnRecord({ finalText: '', stopReason: 'repetition' }), { secrets: [] });
    expect(cut.text).toBe('ขออภัย คำตอบของโมเดลผิดปกติจึงถูกตัดไว้ กรุณาถามใหม่อีกครั้ง หรือถามให้เฉพาะเจาะจงขึ้น');
    expect(cut.events).toEqual([]);
    const logged = runAnswerGuards(turnRecord({ toolCalls: [search], finalText: '', stopReason: 'repeat-call' }), { secrets: [] });
    expect(logged.text).toMatch(/^ขออภัย ยังสรุปคำตอบได้ไม่ครบ/);
    expect(logged.events).toEqual([]);
  });

  it('puts the vision note first and the sources last; history keeps the answer without the note', () => {
    const record = turnRecord({ toolCalls: [search], finalText: 'ราคาทองคำแท่งวันนี้ขายออกบาทละ 41,050 บาท' });
    const result = runAnswerGuards(record, { secrets: [], unreadImages: ['no-text', 'ocr-unavailable'] });
    const answer = 'ราคาทองคำแท่งวันนี้ขายออกบาทละ 41,050 บาท\n\n**แหล่งที่มา**\n1. https://www.goldtraders.or.th/';
    expect(result.text).toBe(`(โมเดลที่ใช้อยู่มองไม่เห็นรูปภาพ และเครื่องนี้ยังไม่ได้ติดตั้งโปรแกรมอ่านตัวหนังสือในรูป (tesseract) จึงตอบจากข้อความอย่างเดียว)\n\n${answer}`);
    expect(result.answer).toBe(answer);
    expect(result.events).toEqual([{ guard: 'vision', action: 'warn', reason: '2 image(s) neither shown nor read (ocr-unavailable)' }]);
  });

  it('runs DLP after the vision note: the answer is blocked, the note stays in front of the notice', () => {
    const record = turnRecord({ finalText: `โทเค็นคือ ${fake.githubClassic()}` });
    const result = runAnswerGuards(record, { secrets: [], unreadImages: ['ocr-failed'] });
    expect(result.blocked).toBe(true);
    expect(result.text).toBe(`(อ่านตัวหนังสือในรูปไม่สำเร็จ และโมเดลที่ใช้อยู่มองไม่เห็นรูปภาพ จึงตอบจากข้อความอย่างเดียว)\n\n${result.answer}`);
    expect(result.answer).toMatch(/ถูกระงับ/);
    expect(result.events.map((event) => event.guard)).toEqual(['vision', 'dlp']);
  });
});

describe('writeClaimStep', () => {
  const asked = turnRecord({ question: 'บันทึกสรุปนี้เป็นไฟล์ notes.md ให้หน่อย', finalText: 'บันทึกแล้วครับ' });

  it('passes when nothing was asked or claimed, and asks for the one retry when tools can be called', () => {
    expect(writeClaimStep(turnRecord({ finalText: 'ราคาทองวันนี้' }), { retried: false, canRetry: true })).toEqual({ action: 'pass' });
    expect(writeClaimStep(asked, { retried: false, canRetry: true })).toMatchObject({ action: 'retry', event: { guard: 'write-claim', action: 'warn' } });
  });

  it('fails with the honest text: both events without tools, only the failure after the retry', () => {
    const withoutTools = writeClaimStep(asked, { retried: false, canRetry: false });
    const afterRetry = writeClaimStep(asked, { retried: true, canRetry: true });
    expect(withoutTools).toMatchObject({ action: 'failed', text: expect.stringMatching(/^ขออภัย ครั้งนี้ยังไม่ได้บันทึกไฟล์/) });
    expect(withoutTools.action === 'failed' && withoutTools.events.map((event) => event.action)).toEqual(['warn', 'rewrite']);
    expect(afterRetry.action === 'failed' && afterRetry.events.map((event) => event.action)).toEqual(['rewrite']);
  });
});
