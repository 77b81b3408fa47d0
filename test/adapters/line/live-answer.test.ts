import { messagingApi } from '@line/bot-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { earlyReplyLeadMs } from '../../../adapters/line/live-answer.js';
import { lineResponder } from '../../../adapters/line/responder.js';
import { memoryJournal } from '../../../src/pipeline/reply-journal.js';
import type { DeliveryJournal, LiveAnswerStart } from '../../../src/shared/channel.js';
import { silentLogger } from '../../../src/shared/log.js';
import { lineUserId, startFakeLine, type FakeLine } from '../../fakes/line/index.js';
import { ManualScheduler } from '../../support/manual-scheduler.js';
import { lineDirectMessage } from './direct-message.js';

// LINE cannot edit a message, so a streamed answer is not shown while written; but when the reply window closes with
// the turn still running, the reply token carries what is ready and the final reply pushes only the rest.

const somchai = lineUserId('somchai');
const windowMs = 50_000;
const answer = 'ราคาทองคำแท่งวันนี้ขายออกบาทละ 41,050 บาท\n\nราคาทองรูปพรรณขายออกบาทละ 41,650 บาท ซึ่งสูงกว่าเพราะรวมค่ากำเหน็จ';
const firstParagraph = 'ราคาทองคำแท่งวันนี้ขายออกบาทละ 41,050 บาท';

let line: FakeLine;
let scheduler: ManualScheduler;
let clock: number;

beforeEach(async () => {
  line = await startFakeLine();
  scheduler = new ManualScheduler();
  clock = Date.now();
});
afterEach(async () => {
  await line.close();
});

function setup() {
  const { event, message } = lineDirectMessage(line, somchai, 'ราคาทองวันนี้', clock, windowMs);
  const client = new messagingApi.MessagingApiClient({ channelAccessToken: line.channelAccessToken, baseURL: line.url });
  const responder = lineResponder(message, somchai, {
    client,
    logger: silentLogger(),
    language: 'th',
    timeZone: 'Asia/Bangkok',
    sleep: async () => undefined,
    scheduler,
    recordSent: async () => undefined,
    onQuotaExhausted: () => undefined,
    now: () => clock,
  });
  const remembered: string[] = [];
  const start: LiveAnswerStart = { remember: async (handle) => void remembered.push(handle) };
  return { event, responder, remembered, start };
}

/** Moves time to just before the window closes: the early reply's moment. */
function closeTheWindow(): void {
  clock += windowMs - earlyReplyLeadMs;
  scheduler.advance(windowMs - earlyReplyLeadMs);
}

const finalJournal = (liveMessage: string | undefined): DeliveryJournal => {
  const journal = memoryJournal();
  return liveMessage === undefined ? journal : { isSent: journal.isSent, sending: journal.sending, sent: journal.sent, liveMessage };
};

const texts = (via: 'reply' | 'push') =>
  line
    .sentMessages(somchai)
    .filter((sent) => sent.via === via)
    .map((sent) => sent.text);

describe('LINE live answer: the reply window', () => {
  it('replies with the finished lines and a note when the window closes mid-answer; the final reply pushes the rest', async () => {
    const { responder, remembered, start } = setup();
    const live = responder.live?.(start);
    live?.show(answer.slice(0, answer.indexOf('ซึ่ง')));
    closeTheWindow();
    await live?.end();
    expect(texts('reply')).toEqual([firstParagraph, '(ยังเขียนคำตอบอยู่ ส่วนที่เหลือจะส่งตามมา)']);
    expect(remembered).toHaveLength(1);
    await responder.send({ text: answer, files: [] }, finalJournal(remembered[0]));
    expect(texts('push')).toEqual(['ราคาทองรูปพรรณขายออกบาทละ 41,650 บาท ซึ่งสูงกว่าเพราะรวมค่ากำเหน็จ']);
    expect(line.callsOf('POST /v2/bot/message/reply')).toHaveLength(1);
  });

  it('says what the turn is doing when no text is ready, and pushes the whole answer after', async () => {
    const { responder, remembered, start } = setup();
    const live = responder.live?.(start);
    live?.status({ kind: 'tool', tool: 'web_search' });
    closeTheWindow();
    await live?.end();
    expect(texts('reply')).toEqual(['กำลังค้นเว็บ… คำตอบจะส่งตามมาเมื่อเสร็จ']);
    await responder.send({ text: answer, files: [] }, finalJournal(remembered[0]));
    expect(texts('push').join('\n\n')).toBe(answer);
  });

  it('keeps the single reply when the answer is ready before the window closes', async () => {
    const { responder, remembered, start } = setup();
    const live = responder.live?.(start);
    live?.show(firstParagraph);
    await live?.end();
    closeTheWindow();
    await responder.send({ text: answer, files: [] }, finalJournal(undefined));
    expect(remembered).toEqual([]);
    expect(texts('push')).toEqual([]);
    expect(texts('reply').join('\n\n')).toBe(answer);
  });

  it('after a restart pushes only the rest of the same answer, and the whole of another one', async () => {
    const first = setup();
    const live = first.responder.live?.(first.start);
    live?.show(answer.slice(0, answer.indexOf('ซึ่ง')));
    closeTheWindow();
    await live?.end();
    const handle = first.remembered[0];
    // The next process: a new responder, the stored handle in the journal.
    const again = setup().responder;
    again.live?.({ earlier: handle, remember: async () => undefined });
    await again.send({ text: answer, files: [] }, finalJournal(handle));
    const another = 'คำตอบที่เขียนใหม่ทั้งหมดหลังเริ่มระบบใหม่';
    await setup().responder.send({ text: another, files: [] }, finalJournal(handle));
    expect(texts('push')).toEqual(['ราคาทองรูปพรรณขายออกบาทละ 41,650 บาท ซึ่งสูงกว่าเพราะรวมค่ากำเหน็จ', another]);
  });

  it('sends nothing early when LINE refuses the token, and the answer is pushed whole', async () => {
    const { event, responder, remembered, start } = setup();
    line.expireReplyToken(event.replyToken);
    const live = responder.live?.(start);
    live?.show(answer.slice(0, answer.indexOf('ซึ่ง')));
    closeTheWindow();
    await live?.end();
    expect(remembered).toEqual([]);
    expect(line.sentMessages(somchai)).toEqual([]);
    clock += earlyReplyLeadMs;
    await responder.send({ text: answer, files: [] }, finalJournal(undefined));
    expect(texts('push').join('\n\n')).toBe(answer);
  });
});
