import { afterEach, describe, expect, it } from 'vitest';
import { lineUserId, userSource } from '../../fakes/line/index.js';
import { startLineHarness, type LineHarness } from './line-harness.js';

// A slow model on LINE, through the real app: the answer is still being written when the reply window closes, so the
// free reply carries what is ready (or what the bot is doing) and the rest is pushed once the model finishes — the
// answer reaches the chat exactly once, nothing repeated, nothing lost. (Which of the two the reply carries depends
// on how far the stream got when the window's timer fired; test/adapters/line/live-answer.test.ts drives each.)

const somchai = lineUserId('somchai');
const opening = 'ราคาทองคำแท่งวันนี้ขายออกบาทละ 41,050 บาท ตามประกาศของสมาคมค้าทองคำ\n\nส่วนทองรูปพรรณ';
const rest = 'ขายออกบาทละ 41,650 บาท สูงกว่าเพราะรวมค่ากำเหน็จ';
const notes = ['(ยังเขียนคำตอบอยู่ ส่วนที่เหลือจะส่งตามมา)', 'กำลังคิดคำตอบ… คำตอบจะส่งตามมาเมื่อเสร็จ'];

let harness: LineHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('LINE: the reply window closes while the model writes', () => {
  it('replies with what is ready, then pushes the rest once: the answer arrives whole and exactly once', async () => {
    harness = await startLineHarness({ environment: { LINE_REPLY_WINDOW_MS: '4000' } });
    const { line, model } = harness;
    // The figures are in the answer's question, so the numbers guard keeps them.
    const question = 'ทองแท่ง 41,050 บาท ทองรูปพรรณ 41,650 บาท ต่างกันเพราะอะไร';
    model.script({ hang: true, text: opening });
    const event = line.textEvent({ source: userSource(somchai), text: question });
    await harness.post(line.webhookBody(event));
    await line.waitForCall('POST /v2/bot/message/reply');
    expect(model.continueHanging(rest, { finish: true })).toBe(true);
    await line.waitForCall('POST /v2/bot/message/push');
    await harness.test.app.inbound.idle();

    const sent = line.sentMessages(somchai);
    const replied = sent.filter((message) => message.via === 'reply').map((message) => message.text ?? '');
    const pushed = sent.filter((message) => message.via === 'push').map((message) => message.text ?? '');
    expect(notes).toContain(replied.at(-1));
    const whole = [...replied.slice(0, -1), ...pushed].join('\n\n');
    expect(whole).toBe(`${opening}${rest}`);
    expect(line.callsOf('POST /v2/bot/message/reply')).toHaveLength(1);
    expect(line.callsOf('POST /v2/bot/message/push')).toHaveLength(1);
  });
});
