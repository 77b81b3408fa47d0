import { afterEach, describe, expect, it } from 'vitest';
import { lineClockSkewMarginMs, lineMaxEventAgeMs } from '../../../adapters/line/webhook-events.js';
import { lineUserId, userSource } from '../../fakes/line/index.js';
import { rawRequest } from '../../support/raw-http.js';
import { startLineHarness, type LineHarness } from './line-harness.js';

// LINE's signed webhook against what a signature does not prove: an event replayed after the dedupe window forgot
// it (refused by its timestamp, logged, 200 so LINE stops), a signed body or event the adapter cannot read (dropped
// with a log line, 200: an error answer would only bring it back), and a body over the cap sent chunked (413 read
// whole, no reset).

const somchai = lineUserId('somchai');
const hour = 3600 * 1000;

let harness: LineHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const messagesOf = (records: LineHarness['adapterLog'], text: string) => records.filter((record) => record.msg.includes(text));

describe('LINE webhook event age', () => {
  it('takes events up to the dedupe window, less the clock margin (at least half the window)', () => {
    expect(lineMaxEventAgeMs(24 * hour)).toBe(24 * hour - lineClockSkewMarginMs);
    expect(lineMaxEventAgeMs(60_000)).toBe(30_000);
  });

  it('refuses an event older than the window with a log line and 200, and still takes the fresh event beside it', async () => {
    harness = await startLineHarness({ environment: { DEDUPE_TTL_SECONDS: '3600' } });
    const { line, model } = harness;
    model.script({ text: 'ตอบข้อความใหม่' });
    const replayed = { ...line.textEvent({ source: userSource(somchai), text: 'ข้อความเก่าที่ส่งซ้ำ' }), timestamp: Date.now() - 2 * hour };
    const fresh = line.textEvent({ source: userSource(somchai), text: 'ข้อความใหม่' });
    expect((await harness.deliver(replayed, fresh)).status).toBe(200);
    expect(harness.handled).toHaveLength(1);
    expect(harness.sentTexts(somchai)).toEqual(['ตอบข้อความใหม่']);
    expect(messagesOf(harness.adapterLog, 'older than the dedupe window')).toMatchObject([{ webhookEventId: replayed.webhookEventId, reason: 'too-old' }]);
    // Within the window: taken.
    model.script({ text: 'ตอบข้อความช้า' });
    const late = { ...line.textEvent({ source: userSource(somchai), text: 'ข้อความช้าครึ่งชั่วโมง' }), timestamp: Date.now() - hour / 2 };
    expect((await harness.deliver(late)).status).toBe(200);
    // Half an hour old when its turn comes: answered, with the late note in front (MAX_MESSAGE_AGE_MS).
    expect(harness.sentTexts(somchai)).toEqual(['ตอบข้อความใหม่', expect.stringMatching(/^\(ตอบช้า: .*\)\n\nตอบข้อความช้า$/)]);
  });
});

describe('LINE webhook bodies a signature does not make readable', () => {
  it('drops a signed body that is no event batch, and unreadable events, with a log line and 200', async () => {
    harness = await startLineHarness();
    const { line, model } = harness;
    expect((await harness.post('not json')).status).toBe(200);
    expect((await harness.post({ events: 'none' })).status).toBe(200);
    const good = line.textEvent({ source: userSource(somchai), text: 'สวัสดี' });
    const broken = {
      ...line.textEvent({ source: userSource(somchai), text: 'x' }),
      message: { type: 'text', id: '1', text: 'x', mention: { mentionees: 'all' } },
    };
    const noMessage = { ...line.textEvent({ source: userSource(somchai), text: 'y' }), message: null };
    model.script({ text: 'สวัสดีครับ' });
    expect((await harness.post(line.webhookBody(broken as never, noMessage as never, good))).status).toBe(200);
    await harness.test.app.inbound.idle();
    expect(harness.sentTexts(somchai)).toEqual(['สวัสดีครับ']);
    expect(messagesOf(harness.adapterLog, 'is not a LINE event batch')).toHaveLength(2);
    expect(messagesOf(harness.adapterLog, 'webhook event malformed')).toMatchObject([
      { webhookEventId: broken.webhookEventId, reason: 'malformed' },
      { webhookEventId: noMessage.webhookEventId, reason: 'malformed' },
    ]);
  });

  it('refuses a chunked body over the cap with 413 as it arrives, read whole by the sender', async () => {
    harness = await startLineHarness();
    const port = Number(new URL(harness.webhookUrl).port);
    const answer = await rawRequest(port, ['POST /webhooks/line HTTP/1.1\r\nHost: x\r\nX-Line-Signature: c2lnbmF0dXJl\r\nTransfer-Encoding: chunked\r\n\r\n'], {
      keepSending: { chunk: Buffer.from(`4000\r\n${'z'.repeat(0x4000)}\r\n`), max: 1024 * 1024 },
    });
    expect([answer.status, answer.end]).toEqual([413, 'answered']);
    expect(harness.handled).toEqual([]);
  });
});
