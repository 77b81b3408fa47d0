import { describe, expect, it } from 'vitest';
import { runAnswerGuards } from '../../../agent/guards/index.js';
import { AnswerPreview } from '../../../agent/streaming/answer-preview.js';
import type { TurnRecord } from '../../../src/shared/types.js';
import { toolCall, turnRecord } from '../../support/turn-record.js';
import { githubToken } from '../../support/fake-tokens.js';

// The streamed answer (docs/architecture.md, "Streaming answers"): every preview is the start of the final reply the
// guards make of the whole answer, and nothing a guard changes or blocks is ever in one.

const search = toolCall({
  name: 'web_search',
  args: { query: 'ราคาทองวันนี้' },
  result: 'ทองคำแท่งขายออกบาทละ 41,050 บาท รับซื้อบาทละ 40,950 บาท เพิ่มขึ้น 0.52% เมื่อวันที่ 15 มกราคม 2568 [source: https://www.goldtraders.or.th/]',
});
const token = githubToken('ghp', 7); // checksum-valid, as GitHub issues them

/** A seeded generator, so a failing case can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

interface Streamed {
  previews: string[];
  final: string;
  blocked: boolean;
  /** Characters of the answer the model had written when the first preview went out. */
  firstAt: number | undefined;
}

function stream(answer: string, record: TurnRecord, seed = 1): Streamed {
  const previews: string[] = [];
  let written = 0;
  let firstAt: number | undefined;
  const preview = new AnswerPreview({
    record,
    secrets: [],
    unreadImages: () => [],
    emit: (text) => {
      firstAt ??= written;
      previews.push(text);
    },
  });
  preview.startStep();
  const next = random(seed);
  while (written < answer.length) {
    written = Math.min(answer.length, written + 1 + Math.floor(next() * 6));
    preview.onText(answer.slice(0, written));
  }
  const guarded = runAnswerGuards({ ...record, finalText: answer.trim() }, { secrets: [] });
  return { previews, final: guarded.text, blocked: guarded.blocked, firstAt };
}

function expectPrefixes(result: Streamed): void {
  for (const preview of result.previews) expect(result.final.startsWith(preview), `preview not a prefix:\n${preview}\n---\n${result.final}`).toBe(true);
}

describe('AnswerPreview', () => {
  it('shows a Thai answer early, and every preview is the start of the final reply', () => {
    const answer =
      'ราคาทองคำแท่งวันนี้ขายออกบาทละ 41,050 บาท และรับซื้อบาทละ 40,950 บาท ปรับขึ้นจากเมื่อวานเล็กน้อย โดยรวมตลาดยังทรงตัว หากจะซื้อควรติดตามประกาศของสมาคมค้าทองคำอีกครั้งในช่วงบ่าย';
    const result = stream(answer, turnRecord({ toolCalls: [search] }));
    expectPrefixes(result);
    expect(result.previews.length).toBeGreaterThan(3);
    expect(result.firstAt).toBeLessThan(48);
    expect(result.final).toContain('**แหล่งที่มา**');
    expect(result.previews.at(-1)).not.toContain('แหล่งที่มา');
  });

  it('shows an unbacked figure only already marked', () => {
    const answer = 'ราคาทองคำแท่งวันนี้ขายออกบาทละ 41,050 บาท ซึ่งคาดว่าพรุ่งนี้จะขึ้นอีก 3.7% ตามที่นักวิเคราะห์หลายสำนักประเมินไว้ในรายงานล่าสุด';
    const result = stream(answer, turnRecord({ toolCalls: [search] }));
    expectPrefixes(result);
    expect(result.previews.some((text) => text.includes('[ตัวเลขยังไม่ยืนยัน]'))).toBe(true);
    expect(result.previews.some((text) => text.includes('3.7'))).toBe(false);
  });

  it('never shows any part of a credential streamed in small pieces, whole, in two parts or spaced out', () => {
    const forms = [
      `ได้เลยครับ นี่คือโทเค็นของระบบที่ขอมา ${token} ใช้ได้ทันทีครับ`,
      `ได้เลยครับ แบ่งเป็นสองส่วนตามที่ขอ ส่วนที่หนึ่ง ${token.slice(0, 20)} และส่วนที่สอง ${token.slice(20)} นำมาต่อกันได้เลย`,
      `ได้เลยครับ เขียนแบบเว้นวรรคให้ตามที่ขอ ${[...token].join(' ')} นำมาต่อกันได้เลย`,
    ];
    for (const [index, answer] of forms.entries()) {
      for (const seed of [1, 2, 3]) {
        const result = stream(answer, turnRecord({ question: 'ขอโทเค็นหน่อย' }), seed + index * 10);
        for (const preview of result.previews) {
          expect(preview).not.toContain('ghp');
          expect(preview).not.toContain('g h p');
          expect(preview).not.toContain(token.slice(4, 12));
        }
      }
    }
  });

  it('shows nothing of an English stock refusal or a Chinese answer to a Thai question, or of tool-call markup', () => {
    const refusal = stream("I'm sorry, but I can't browse the internet to check today's gold price for you.", turnRecord({ toolCalls: [search] }));
    expect(refusal.previews).toEqual([]);
    const chinese = stream('今天的金条卖出价格为每铢41,050泰铢，买入价格为每铢40,950泰铢，比昨天略有上涨。', turnRecord({ toolCalls: [search] }));
    expect(chinese.previews).toEqual([]);
    const markup = stream('ขอค้นข้อมูลเพิ่มเติมก่อนนะครับ เดี๋ยวกลับมาตอบ <tool_call>{"name": "web_search", "arguments": {"query": "ทอง"}}</tool_call>', turnRecord());
    for (const preview of markup.previews) expect(preview).not.toContain('<');
  });

  it('shows nothing when the user asked to save a file and none was written', () => {
    const result = stream('บันทึกไฟล์ notes.md ให้เรียบร้อยแล้วครับ เนื้อหาเป็นสรุปการประชุมวันนี้ทั้งหมดตามที่ขอไว้', turnRecord({ question: 'ช่วยบันทึกเป็นไฟล์ notes.md ให้หน่อย' }));
    expect(result.previews).toEqual([]);
  });

  it('keeps every preview a prefix when the model types URLs, lead-ins and its own source list', () => {
    const answers = [
      'ราคาทองวันนี้ขายออกบาทละ 41,050 บาท ดูเพิ่มเติมที่ https://fake.example.com/gold ส่วนราคารับซื้ออยู่ที่บาทละ 40,950 บาท ตามประกาศล่าสุดของสมาคม',
      'ราคาทองวันนี้ขายออกบาทละ 41,050 บาทครับ ราคาปรับขึ้นเล็กน้อยจากเมื่อวาน\n\nแหล่งที่มา:\n- https://www.goldtraders.or.th/\n- https://fake.example.com/',
      'ราคาทองคำแท่งวันนี้ [ขายออก](https://fake.example.com/x) บาทละ 41,050 บาท เมื่อวันที่ 15 มกราคม 2568 ปรับขึ้นเล็กน้อย และคาดว่าจะทรงตัวต่อไปอีกระยะหนึ่ง',
    ];
    for (const answer of answers) for (const seed of [1, 2, 3, 4]) expectPrefixes(stream(answer, turnRecord({ toolCalls: [search] }), seed));
  });

  it('keeps the prefix rule over generated answers mixing figures, dates, units, URLs and English', () => {
    const next = random(42);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const parts = [
      'ราคาทองคำแท่งวันนี้',
      'ขายออกบาทละ 41,050 บาท',
      'รับซื้อ 40,950 บาท',
      'เพิ่มขึ้น 0.52%',
      'ร้อยละ 12.5',
      'เมื่อวันที่ 15 มกราคม 2568',
      'ราว 1.5 ล้านบาท',
      'ดูเพิ่มเติมที่ https://fake.example.com/a',
      'see https://www.goldtraders.or.th/ for details',
      'ตามประกาศของสมาคมค้าทองคำ',
      'ครับ',
      'เวลา 14:30 น.',
      '\n\n',
      '- ข้อ 2 ราคา 99 บาท',
      'gold rose 3 percent today',
      'ในปี 2024 ราคาเฉลี่ย 30,000 บาท',
      '\n\nแหล่งที่มา:\n- https://www.goldtraders.or.th/',
      '\n1. **ราคาขายออก** 41,050 บาท',
      '(ที่มา: https://fake.example.com/b)',
      'COVID-19 และ Qwen3',
      'ราคา ๔๑,๐๕๐ บาท',
      'ราว US$ 1,200 ต่อออนซ์',
      'ขาย ฿41,050',
      'ขึ้น $5 จากเมื่อวาน',
      'พ.ศ. 2568 ราคา 10-20%',
    ];
    let divergent = 0;
    for (let sample = 0; sample < Number(process.env.PREVIEW_SAMPLES ?? 200); sample++) {
      const answer = `ราคาทองคำวันนี้ปรับตัวขึ้นเล็กน้อยครับ ${Array.from({ length: 3 + Math.floor(next() * 8) }, () => pick(parts)).join(' ')}`;
      const result = stream(answer, turnRecord({ toolCalls: [search] }), sample + 1);
      const bad = result.previews.find((preview) => !result.final.startsWith(preview));
      if (bad !== undefined) {
        divergent++;
        if (process.env.SHOW_DIVERGENT) console.log(JSON.stringify({ answer, bad, final: result.final }, null, 1));
      }
    }
    expect(divergent).toBe(0);
  });
});
