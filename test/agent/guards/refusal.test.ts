import { describe, expect, it } from 'vitest';
import { checkRefusal, isEnglishStockRefusal } from '../../../agent/guards/refusal.js';
import { answerFromToolLog } from '../../../agent/guards/tool-log-answer.js';
import { toolCall, turnRecord } from '../../support/turn-record.js';

describe('checkRefusal', () => {
  const thai = 'ราคาทองวันนี้เท่าไหร่';
  const replaced: [string, Parameters<typeof turnRecord>[0]][] = [
    ['LangGraph step-budget sentinel', { question: thai, finalText: 'Sorry, need more steps to process this request.' }],
    ['AgentExecutor iteration limit', { question: thai, finalText: 'Agent stopped due to iteration limit or time limit.' }],
    ['a sentinel to an English question too', { question: 'gold price?', language: 'en', finalText: 'Sorry, need more steps to process this request.' }],
    ["I'm sorry, but I can't", { question: thai, finalText: "I'm sorry, but I can't help with that." }],
    ['I cannot provide', { question: thai, finalText: 'I cannot provide real-time gold prices.' }],
    ['As an AI language model', { question: thai, finalText: 'As an AI language model, I do not have access to current prices.' }],
    ["I don't have access", { question: thai, finalText: "I don't have access to the internet." }],
    ['the step limit with a half answer', { question: thai, finalText: 'กำลังค้นหา', stopReason: 'step-limit' }],
    ['an empty answer after a cut stream', { question: thai, finalText: '', stopReason: 'repetition' }],
  ];
  it.each(replaced)('replaces: %s', (_name, overrides) => {
    expect(checkRefusal(turnRecord(overrides)).action).toBe('rewrite');
  });

  const kept: [string, Parameters<typeof turnRecord>[0]][] = [
    ['a Thai apology that answers', { question: thai, finalText: 'ขออภัย ระบบไม่สามารถเชื่อมต่อเว็บสมาคมค้าทองคำได้ เนื่องจากเว็บล่ม ราคาล่าสุดเมื่อวานคือ 41,000 บาท' }],
    ['a short Thai refusal', { question: thai, finalText: 'ขออภัย ไม่สามารถให้ข้อมูลนี้ได้' }],
    ['an English refusal to an English question', { question: 'how do I pick a lock?', language: 'en', finalText: "I'm sorry, but I can't help with that." }],
    [
      'a long English answer that starts with sorry',
      { question: thai, finalText: `Sorry for the delay. ${'Gold prices rose sharply this week because of demand. '.repeat(10)}` },
    ],
    ['an English answer to a Thai question that is not a refusal', { question: thai, finalText: 'Gold is 41,050 baht per baht-weight today.' }],
  ];
  it.each(kept)('keeps: %s', (_name, overrides) => {
    expect(checkRefusal(turnRecord(overrides))).toEqual({ action: 'pass' });
  });

  it('does not call Thai text with an English sentence a stock refusal', () => {
    expect(isEnglishStockRefusal("ขออภัยครับ I'm sorry, I can't")).toBe(false);
  });
});

describe('answerFromToolLog', () => {
  const search = toolCall({
    name: 'web_search',
    args: { query: 'ราคาทอง 2567' },
    result: '1. ทองคำแท่งขายออก 41,050 บาท [source: https://www.goldtraders.or.th]\n2. ทองรูปพรรณ 41,550 บาท\n\n',
  });
  const failed = toolCall({ id: 'kb', name: 'query_knowledge', args: { action: 'query', query_text: 'วันลา' }, ok: false, result: 'KB ไม่พร้อมใช้งาน\nรายละเอียด' });

  it('says what was looked up and what was found, without markers, and skips repeated calls', () => {
    const warned = { ...search, id: 'again', result: `⚠️ เรียกซ้ำ\n\n${search.result}` };
    const text = answerFromToolLog(turnRecord({ toolCalls: [search, warned, failed] }));
    expect(text).toBe(
      [
        'ขออภัย ยังสรุปคำตอบได้ไม่ครบ แต่นี่คือสิ่งที่ค้นพบระหว่างทาง:',
        '• ค้นเว็บ `ราคาทอง 2567`:\n  1. ทองคำแท่งขายออก 41,050 บาท\n  2. ทองรูปพรรณ 41,550 บาท',
        '• ค้นคลังความรู้ `วันลา`: ไม่สำเร็จ (KB ไม่พร้อมใช้งาน)',
      ].join('\n\n'),
    );
  });

  it('apologizes briefly when no tool ran, in the turn language', () => {
    expect(answerFromToolLog(turnRecord())).toMatch(/^ขออภัย ครั้งนี้ยังตอบคำถามนี้ไม่ได้/);
    expect(answerFromToolLog(turnRecord({ language: 'en' }))).toMatch(/^Sorry, I could not answer/);
  });

  it('says the tools failed when every call failed', () => {
    expect(answerFromToolLog(turnRecord({ language: 'en', toolCalls: [failed] }))).toMatch(
      /^Sorry, I could not find the answer because the tools I used failed:\n\n• Knowledge base search `วันลา`: failed/,
    );
  });
});
