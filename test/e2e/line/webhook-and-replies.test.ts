import { afterEach, describe, expect, it } from 'vitest';
import { newestUserContent } from '../../fakes/recorded-messages.js';
import { groupSource, lineGroupId, lineUserId, monthlyLimitReached, rateLimited, userSource } from '../../fakes/line/index.js';
import { longThaiText } from '../../support/long-thai-text.js';
import { startLineHarness, type LineHarness } from './line-harness.js';

// LINE through the real @line/bot-sdk against the fake platform, answered by the real app: the signed webhook
// (401, 413, 405, every event of a batch stored, redeliveries deduplicated), who is addressed in groups, one reply
// call of at most five bubbles quoting the user, a push with a retry key once the token is gone, quota and rate
// limits, the loading animation, images before the mention, files for /kb add, and the join greeting.

const somchai = lineUserId('somchai');
const malee = lineUserId('malee');
const group = lineGroupId('team');

let harness: LineHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('LINE webhook', () => {
  it('fails start with a clear message when the access token is refused', async () => {
    await expect(startLineHarness({ environment: { LINE_CHANNEL_ACCESS_TOKEN: 'not-the-token' } })).rejects.toThrow(
      'LINE_CHANNEL_ACCESS_TOKEN was refused by LINE (401)',
    );
  });

  it('refuses a wrong or missing signature with 401 and stores nothing, a huge body with 413, GET with 405', async () => {
    harness = await startLineHarness();
    const { line } = harness;
    const event = line.textEvent({ source: userSource(somchai), text: 'สวัสดี' });
    expect((await harness.post(line.webhookBody(event), { secret: 'not-the-secret' })).status).toBe(401);
    expect((await harness.post(line.webhookBody(event), { signature: null })).status).toBe(401);
    expect((await harness.post('x'.repeat(300 * 1024))).status).toBe(413);
    expect((await fetch(harness.webhookUrl)).status).toBe(405);
    await harness.test.app.inbound.idle();
    expect(harness.handled).toEqual([]);
    expect(harness.model.chatRequests).toHaveLength(0);
  });

  it('stores every event of a batch, answers each once, and ignores a redelivery', async () => {
    harness = await startLineHarness();
    const { line, model } = harness;
    model.script({ text: 'ตอบสมชาย' }, { text: 'ตอบมาลี' });
    const first = line.textEvent({ source: userSource(somchai), text: 'คำถามแรก' });
    const second = line.textEvent({ source: userSource(malee), text: 'คำถามที่สอง' });
    expect((await harness.deliver(first, second)).status).toBe(200);
    expect(harness.sentTexts(somchai)).toEqual(['ตอบสมชาย']);
    expect(harness.sentTexts(malee)).toEqual(['ตอบมาลี']);
    expect((await harness.deliver(line.redeliver(first))).status).toBe(200);
    expect(harness.sentTexts(somchai)).toEqual(['ตอบสมชาย']);
    expect(model.chatRequests).toHaveLength(2);
    expect(line.loadingCalls(somchai).length).toBeGreaterThan(0);
  });
});

describe('LINE groups', () => {
  it('answers only its mention (stripped) or a quote of its own message, quoting the user; @All alone is chatter', async () => {
    harness = await startLineHarness();
    const { line, model } = harness;
    await harness.deliver(line.textEvent({ source: groupSource(group, somchai), text: 'ใครไปกินข้าวบ้าง' }));
    await harness.deliver(line.textEvent({ source: groupSource(group, somchai), text: '@All ประชุมบ่ายนี้', mentions: [{ match: '@All', kind: 'all' }] }));
    expect(model.chatRequests).toHaveLength(0);

    model.script({ text: 'ร้านเปิดแปดโมง' }, { text: 'ปิดสองทุ่ม' });
    const asked = line.textEvent({ source: groupSource(group, somchai), text: '@แสง ร้านเปิดกี่โมง', mentions: [{ match: '@แสง', kind: 'self' }] });
    await harness.deliver(asked);
    expect(newestUserContent(model.chatRequests[0])).toContain('ร้านเปิดกี่โมง');
    expect(JSON.stringify(model.chatRequests[0])).not.toContain('@แสง');
    const [answer] = line.sentMessages(group);
    expect(answer).toMatchObject({ via: 'reply', text: 'ร้านเปิดแปดโมง', quoting: asked.message.quoteToken });
    // Chatter above the question went to the model with it.
    expect(newestUserContent(model.chatRequests[0])).toContain('ใครไปกินข้าวบ้าง');

    await harness.deliver(line.textEvent({ source: groupSource(group, malee), text: 'แล้วปิดกี่โมง', quotedMessageId: answer?.id ?? '' }));
    expect(harness.sentTexts(group)).toEqual(['ร้านเปิดแปดโมง', 'ปิดสองทุ่ม']);
    expect(line.loadingCalls(group)).toEqual([]);
  });

  it('a sender LINE does not identify is never an admin', async () => {
    harness = await startLineHarness({ environment: { ADMIN_IDS: `line:${somchai}` } });
    const { line } = harness;
    await harness.deliver(line.textEvent({ source: groupSource(group), text: '@แสง /kb create คู่มือ', mentions: [{ match: '@แสง', kind: 'self' }] }));
    expect(harness.sentTexts(group).at(-1)).toContain('ผู้ดูแล');
    await harness.deliver(line.textEvent({ source: groupSource(group, somchai), text: '@แสง /kb create คู่มือ', mentions: [{ match: '@แสง', kind: 'self' }] }));
    expect(harness.sentTexts(group).at(-1)).toContain('คู่มือ');
  });

  it('greets a group it joins, once', async () => {
    harness = await startLineHarness();
    await harness.deliver(harness.line.joinEvent(groupSource(group)));
    await harness.line.waitForCall('POST /v2/bot/message/reply');
    expect(harness.sentTexts(group)).toHaveLength(1);
    expect(harness.sentTexts(group)[0]).toContain('แท็ก @ชื่อบอท');
  });
});

describe('LINE replies', () => {
  it('puts a long answer in one reply of at most five bubbles, the last saying it was cut', async () => {
    // Above the default MODEL_MAX_ANSWER_CHARS: the answer must be longer than five bubbles.
    harness = await startLineHarness({ environment: { MODEL_MAX_ANSWER_CHARS: '40000' } });
    harness.model.script({ text: longThaiText(32_000) });
    await harness.deliver(harness.line.textEvent({ source: userSource(somchai), text: 'เล่ายาว ๆ' }));
    const sent = harness.line.sentMessages(somchai);
    expect(sent).toHaveLength(5);
    expect(harness.line.callsOf('POST /v2/bot/message/reply')).toHaveLength(1);
    for (const message of sent) expect((message.text ?? '').length).toBeLessThanOrEqual(5000);
    expect(sent.at(-1)?.text).toContain('ส่วนที่เหลือถูกตัดออก');
  });

  it('pushes the answer with a retry key when the reply token is refused, and waits out a 429', async () => {
    harness = await startLineHarness();
    const { line, model } = harness;
    model.script({ text: 'คำตอบทางพุช' });
    const event = line.textEvent({ source: userSource(somchai), text: 'ถามช้า ๆ' });
    line.expireReplyToken(event.replyToken);
    line.failNext('POST /v2/bot/message/push', rateLimited());
    await harness.deliver(event);
    expect(line.sentMessages(somchai)).toMatchObject([{ via: 'push', text: 'คำตอบทางพุช' }]);
    const pushes = line.callsOf('POST /v2/bot/message/push');
    expect(pushes).toHaveLength(2);
    expect(pushes[0]?.retryKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(pushes[1]?.retryKey).toBe(pushes[0]?.retryKey);
    // The refused reply token is no send; the push's 429, its retry, and the one push that went out are.
    expect(harness.deliveryEvents).toEqual(['rate-limited', 'retried', 'sent']);
  });

  it('logs a used-up monthly quota clearly and keeps running', async () => {
    harness = await startLineHarness();
    const { line, model } = harness;
    model.script({ text: 'ส่งไม่ถึง' }, { text: 'ตอบได้ด้วยการตอบกลับ' });
    const late = line.textEvent({ source: userSource(somchai), text: 'ถามช้า' });
    line.expireReplyToken(late.replyToken);
    line.failNext('POST /v2/bot/message/push', monthlyLimitReached());
    await harness.deliver(late);
    expect(harness.adapterLog.map((record) => record.msg).some((message) => message.includes('monthly message quota is used up'))).toBe(true);
    // The quota's 429 is no rate limit, and nothing went out.
    expect(harness.deliveryEvents).toEqual([]);
    await harness.deliver(line.textEvent({ source: userSource(somchai), text: 'ถามใหม่' }));
    expect(harness.sentTexts(somchai)).toEqual(['ตอบได้ด้วยการตอบกลับ']);
    await harness.deliver(line.textEvent({ source: userSource(somchai), text: '/status' }));
    expect(harness.sentTexts(somchai).at(-1)).toContain('โควตาข้อความ push ของเดือนนี้หมดแล้ว');
  });

  it('shows an admin the month’s push quota and use in /status', async () => {
    harness = await startLineHarness({ environment: { ADMIN_IDS: `line:${somchai}` }, line: { quota: 200 } });
    const { line } = harness;
    const late = line.textEvent({ source: userSource(malee), text: 'ถามช้า' });
    line.expireReplyToken(late.replyToken);
    harness.model.script({ text: 'พุชหนึ่งครั้ง' });
    await harness.deliver(late);
    await harness.deliver(line.textEvent({ source: userSource(somchai), text: '/status' }));
    expect(harness.sentTexts(somchai).at(-1)).toContain('LINE: ข้อความ push เดือนนี้ใช้ไป 1 จาก 200');
    await harness.deliver(line.textEvent({ source: userSource(malee), text: '/status' }));
    expect(harness.sentTexts(malee).at(-1)).not.toContain('ใช้ไป');
  });
});
