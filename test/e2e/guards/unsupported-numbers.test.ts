import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { createTestApp, lookupTool, type TestApp } from '../../support/test-app.js';

// Unsupported numbers end to end: every figure of the answer must be in this turn's tool results, the question or
// the date line (BE↔CE, Thai digits, rounding, months); anything else becomes the Thai "unconfirmed" marker.

let fake: FakeModelServer;
let test: TestApp;

const goldPrice = 'ราคาทองคำแท่งขายออกบาทละ 41,250 บาท ประกาศวันที่ 15 มกราคม 2567 อัตราเงินเฟ้อ 1.23%';
const marker = '[ตัวเลขยังไม่ยืนยัน]';

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  // 04:00 UTC is 11:00 in Bangkok: the date line reads "… พ.ศ. 2569 (ค.ศ. 2026) เวลา 11:00 น.".
  test = createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', BOT_TIMEZONE: 'Asia/Bangkok' },
    extraTools: [lookupTool(() => goldPrice)],
    now: () => new Date('2026-11-29T04:00:00Z'),
  });
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

const lookupCall = { toolCalls: [{ name: 'lookup', arguments: { query: 'ราคาทอง' } }] };
const question = 'มีเงิน 500,000 บาท อยากรู้ราคาทองวันนี้';

describe('unsupported numbers through the turn', () => {
  it('marks figures found nowhere, keeps supported ones (Thai digits, BE↔CE, rounding, question, date line)', async () => {
    const answer =
      'ทองคำแท่งบาทละ ๔๑,๒๕๐ บาท (ประกาศ 15 ม.ค. 2024) เงินเฟ้อ 1.2% งบ 500,000 บาทของคุณ ข้อมูล ณ 11:00 น. ปี 2569 ' + 'คาดว่าราคาจะขึ้นอีก 7.5% ภายในเวลา 14.30 น.';
    fake.script(lookupCall, { text: answer });
    const handled = await test.ask(question);
    fake.assertAllConsumed();

    expect(handled.replies[0]?.text).toBe(
      // The marker takes the figure with its % sign; a unit word after it (น., บาท) stays.
      'ทองคำแท่งบาทละ ๔๑,๒๕๐ บาท (ประกาศ 15 ม.ค. 2024) เงินเฟ้อ 1.2% งบ 500,000 บาทของคุณ ข้อมูล ณ 11:00 น. ปี 2569 ' +
        `คาดว่าราคาจะขึ้นอีก ${marker} ภายในเวลา ${marker} น.`,
    );
    expect(handled.turn?.guardEvents).toContainEqual(
      expect.objectContaining({ guard: 'numbers', action: 'rewrite', reason: expect.stringMatching(/^2 of \d+ figure/) }),
    );
  });

  it('an answer whose figures are all supported is sent byte for byte', async () => {
    const answer = 'ราคาทองคำแท่งบาทละ 41,250 บาท ตามประกาศ 15 มกราคม พ.ศ. 2567 (ค.ศ. 2024) เงินเฟ้อประมาณ 1.2% มี 3 สาขาที่รับซื้อ';
    fake.script(lookupCall, { text: answer });
    const handled = await test.ask(question);
    fake.assertAllConsumed();
    expect(handled.replies[0]?.text).toBe(answer);
    expect(handled.turn?.guardEvents.filter((event) => event.guard === 'numbers')).toEqual([]);
  });

  it('with no tool call, a figure from memory is marked (only the question and the date line support)', async () => {
    fake.script({ text: 'ทองคำแท่งวันนี้บาทละ 43,100 บาท งบ 500,000 บาทซื้อได้' });
    const handled = await test.ask(question);
    expect(handled.replies[0]?.text).toBe(`ทองคำแท่งวันนี้บาทละ ${marker} บาท งบ 500,000 บาทซื้อได้`);
  });

  it('figures inside code and list numbering are left alone', async () => {
    const answer = 'ขั้นตอน:\n1. เปิดพอร์ต `8443`\n2. ตั้งค่า `timeout=90000`\n3. รีสตาร์ต';
    fake.script({ text: answer });
    const handled = await test.ask('ตั้งค่าเซิร์ฟเวอร์ยังไง');
    expect(handled.replies[0]?.text).toBe(answer);
  });
});
