import { afterEach, describe, expect, it } from 'vitest';
import { draftIntervalMs, editIntervalMs } from '../../../adapters/telegram/live-answer.js';
import { textsOf } from './delivery-setup.js';
import { recordingJournal } from '../../support/recording-journal.js';
import { setUpLive, type LiveSetup } from './live-answer-setup.js';
import { direct, group } from './delivery-setup.js';

// Streamed answers through real telegraf to the fake, on a hand-moved clock: drafts in a private chat then one
// sendMessage; in a group one message posted, edited at most once a second, and completed by the final reply.
// Each step waits for the live answer to schedule its next call (an event), never for time.

const setups: LiveSetup[] = [];
afterEach(async () => {
  for (const setup of setups.splice(0)) await setup.close();
});

async function start(...args: Parameters<typeof setUpLive>): Promise<LiveSetup> {
  const setup = await setUpLive(...args);
  setups.push(setup);
  return setup;
}

describe('Telegram live answer, private chat', () => {
  it('shows drafts of the growing answer, then sends the answer once with sendMessage', async () => {
    const { fake, live, responder, scheduler, remembered, inbound } = await start('direct');
    live.show('สวัสดี');
    await scheduler.untilPending();
    live.show('สวัสดี **ครับ**');
    scheduler.advance(draftIntervalMs);
    await scheduler.untilPending();
    await live.end();
    await responder.send({ text: 'สวัสดี **ครับ** ยินดีช่วย', files: [] }, recordingJournal());
    expect(fake.drafts(direct.id)).toMatchObject([
      { text: 'สวัสดี', draftId: 4321 },
      { text: 'สวัสดี ครับ', entities: [{ type: 'bold', offset: 7, length: 4 }], draftId: 4321 },
    ]);
    expect(inbound.messageId).toBe(`${direct.id}:4321`);
    expect(textsOf(fake.sentMessages(direct.id))).toEqual(['สวัสดี ครับ ยินดีช่วย']);
    expect(fake.callsOf('editMessageText')).toEqual([]);
    expect(remembered).toEqual([]);
  });

  it('paces drafts and collapses the texts given meanwhile into the newest', async () => {
    const { fake, live, scheduler } = await start('direct');
    live.show('ก');
    await scheduler.untilPending();
    live.show('กข');
    live.show('กขค');
    scheduler.advance(draftIntervalMs - 1);
    expect(fake.callsOf('sendMessageDraft')).toHaveLength(1);
    scheduler.advance(1);
    await scheduler.untilPending();
    expect(fake.drafts().map((draft) => draft.text)).toEqual(['ก', 'กขค']);
  });

  it('shows a step status in the draft, and waits out a 429 on a draft', async () => {
    const { fake, live, scheduler } = await start('direct');
    fake.rateLimitNext('sendMessageDraft', 2);
    live.status({ kind: 'tool', tool: 'web_search' });
    await scheduler.untilPending();
    expect(fake.drafts()).toEqual([]);
    scheduler.advance(1999);
    expect(fake.callsOf('sendMessageDraft')).toHaveLength(1);
    scheduler.advance(1);
    await scheduler.untilPending();
    expect(fake.drafts()).toMatchObject([{ text: 'กำลังค้นเว็บ…', entities: [{ type: 'italic' }] }]);
    await live.end();
  });

  it('stops drafting when Telegram refuses drafts for this bot, and still sends the answer', async () => {
    const { fake, live, responder, scheduler, records } = await start('direct');
    fake.failNext('sendMessageDraft', { error_code: 400, description: 'Bad Request: method is available only for bots with forum topic mode enabled' });
    live.show('ก');
    await scheduler.untilPending();
    live.show('กข');
    scheduler.advance(draftIntervalMs);
    await live.end();
    await responder.send({ text: 'กขค', files: [] }, recordingJournal());
    expect(fake.callsOf('sendMessageDraft')).toHaveLength(1);
    expect(textsOf(fake.sentMessages(direct.id))).toEqual(['กขค']);
    expect(records.filter((record) => record.level >= 40).map((record) => record.msg)).toEqual([
      'telegram live answer: refused; no more previews for this answer',
    ]);
  });
});

describe('Telegram live answer, group', () => {
  it('posts one message replying to the question, edits it, and the final reply edits it again (no second message)', async () => {
    const { fake, live, responder, scheduler, remembered, asked } = await start('group');
    live.show('กำลัง');
    await scheduler.untilPending();
    expect(remembered).toHaveLength(1);
    const [posted] = fake.sentMessages(group.id);
    expect(posted).toMatchObject({ text: 'กำลัง', reply_to_message: { message_id: asked?.message_id } });
    expect(remembered).toEqual([String(posted?.message_id)]);
    live.show('กำลังตอบ');
    scheduler.advance(editIntervalMs);
    await scheduler.untilPending();
    expect(textsOf(fake.sentMessages(group.id))).toEqual(['กำลังตอบ']);
    await live.end();
    const journal = recordingJournal({ liveMessage: remembered[0] });
    await responder.send({ text: 'กำลังตอบ **เสร็จแล้ว**', files: [] }, journal);
    expect(fake.sentMessages(group.id)).toMatchObject([{ message_id: posted?.message_id, text: 'กำลังตอบ เสร็จแล้ว', entities: [{ type: 'bold' }] }]);
    expect(fake.callsOf('sendMessage')).toHaveLength(1);
    expect(journal.marks).toEqual(['sending 0', 'sent 0']);
  });

  it('ends the live answer before the final reply, so a paced preview never lands after it', async () => {
    const { fake, live, responder, scheduler, remembered } = await start('group');
    live.show('ก');
    await scheduler.untilPending();
    live.show('กข');
    await responder.send({ text: 'กขค', files: [] }, recordingJournal({ liveMessage: remembered[0] }));
    scheduler.advance(editIntervalMs);
    await live.end();
    expect(fake.callsOf('editMessageText').map((call) => call.params.text)).toEqual(['กขค']);
    expect(textsOf(fake.sentMessages(group.id))).toEqual(['กขค']);
  });

  it('waits out a 429 on an edit, then the next edit goes through', async () => {
    const { fake, live, scheduler } = await start('group');
    live.show('หนึ่ง');
    await scheduler.untilPending();
    fake.rateLimitNext('editMessageText', 3);
    live.show('หนึ่ง สอง');
    scheduler.advance(editIntervalMs);
    await scheduler.untilPending();
    expect(fake.callsOf('editMessageText')).toHaveLength(1);
    scheduler.advance(2999);
    expect(fake.callsOf('editMessageText')).toHaveLength(1);
    scheduler.advance(1);
    await scheduler.untilPending();
    expect(textsOf(fake.sentMessages(group.id))).toEqual(['หนึ่ง สอง']);
    await live.end();
  });

  it('takes "message is not modified" on the final edit as delivered', async () => {
    const { fake, live, responder, scheduler, remembered, records } = await start('group');
    live.show('คำตอบเต็ม');
    await scheduler.untilPending();
    await live.end();
    const journal = recordingJournal({ liveMessage: remembered[0] });
    await responder.send({ text: 'คำตอบเต็ม', files: [] }, journal);
    expect(fake.callsOf('editMessageText')[0]?.outcome).toMatchObject({ ok: false, error: { error_code: 400 } });
    expect(textsOf(fake.sentMessages(group.id))).toEqual(['คำตอบเต็ม']);
    expect(journal.marks).toEqual(['sending 0', 'sent 0']);
    expect(records.filter((record) => record.level >= 40)).toEqual([]);
  });

  it('sends the final part 0 as a new message when the live one was deleted, and later parts after it', async () => {
    const { fake, live, responder, scheduler, remembered, asked } = await start('group');
    live.show('ร่าง');
    await scheduler.untilPending();
    await live.end();
    fake.deleteMessage(group.id, Number(remembered[0]));
    const long = `${'ก'.repeat(4000)}\n\n${'ข'.repeat(100)}`;
    await responder.send({ text: long, files: [] }, recordingJournal({ liveMessage: remembered[0] }));
    const sent = fake.sentMessages(group.id);
    expect(textsOf(sent).map((text) => text.trim())).toEqual(['ก'.repeat(4000), 'ข'.repeat(100)]);
    expect(sent[0]).toMatchObject({ reply_to_message: { message_id: asked?.message_id } });
  });

  it('continues the message an earlier attempt left, instead of posting again', async () => {
    const first = await start('group');
    first.live.show('ก่อนล่ม');
    await first.scheduler.untilPending();
    await first.live.end();
    const handle = first.remembered[0];
    const { fake } = first;
    // The same chat after a restart: a new responder handed the remembered message.
    const { telegramResponder } = await import('../../../adapters/telegram/responder.js');
    const responder = telegramResponder(first.inbound, { delivery: first.delivery, logger: first.log, language: 'th' });
    const again = responder.live?.({ earlier: handle, remember: () => Promise.reject(new Error('not expected')) });
    again?.show('หลังล่ม');
    await first.scheduler.untilPending();
    await again?.end();
    await responder.send({ text: 'หลังล่ม ครบ', files: [] }, recordingJournal({ liveMessage: handle }));
    expect(fake.callsOf('sendMessage')).toHaveLength(1);
    expect(textsOf(fake.sentMessages(group.id))).toEqual(['หลังล่ม ครบ']);
  });

  it('retries the final edit like a send (429), and edits in plain text when Telegram cannot parse the HTML', async () => {
    const { fake, live, responder, scheduler, remembered, waits } = await start('group');
    live.show('ร่าง');
    await scheduler.untilPending();
    await live.end();
    fake.rateLimitNext('editMessageText', 2);
    fake.failNext('editMessageText', { error_code: 400, description: "Bad Request: can't parse entities: unexpected end tag" });
    await responder.send({ text: '**คำตอบ** จริง', files: [] }, recordingJournal({ liveMessage: remembered[0] }));
    expect(waits).toEqual([2000]);
    expect(fake.callsOf('editMessageText').map((call) => call.params.parse_mode)).toEqual(['HTML', 'HTML', undefined]);
    expect(fake.sentMessages(group.id)).toMatchObject([{ text: 'คำตอบ จริง' }]);
    expect(fake.callsOf('sendMessage')).toHaveLength(1);
  });

  it('cuts a preview longer than one message to what fits, with "…"', async () => {
    const { fake, live, scheduler } = await start('group');
    live.show(`${'ก'.repeat(3000)}\n\n${'ข'.repeat(3000)}`);
    await scheduler.untilPending();
    const [posted] = textsOf(fake.sentMessages(group.id));
    expect(posted?.length).toBeLessThanOrEqual(4096);
    expect(posted?.startsWith('ก'.repeat(3000))).toBe(true);
    expect(posted?.endsWith('…')).toBe(true);
    await live.end();
  });

  it('shows a step status under the text shown so far, until text comes again', async () => {
    const { fake, live, scheduler } = await start('group', { language: 'en' });
    live.status({ kind: 'model' });
    await scheduler.untilPending();
    expect(textsOf(fake.sentMessages(group.id))).toEqual(['Thinking…']);
    live.show('Gold is');
    scheduler.advance(editIntervalMs);
    await scheduler.untilPending();
    live.status({ kind: 'tool', tool: 'web_search' });
    scheduler.advance(editIntervalMs);
    await scheduler.untilPending();
    expect(textsOf(fake.sentMessages(group.id))).toEqual(['Gold is\n\nSearching the web…']);
    live.show('Gold is up');
    scheduler.advance(editIntervalMs);
    await scheduler.untilPending();
    expect(textsOf(fake.sentMessages(group.id))).toEqual(['Gold is up']);
    await live.end();
  });

  it('sends a preview Telegram cannot parse as plain text, and logs failures without the text', async () => {
    const { fake, live, scheduler, records } = await start('group');
    fake.failNext('sendMessage', { error_code: 400, description: "Bad Request: can't parse entities: unexpected end tag" });
    live.show('**ตัวหนา** ลับมาก');
    await scheduler.untilPending();
    expect(fake.callsOf('sendMessage').map((call) => call.params.parse_mode)).toEqual(['HTML', undefined]);
    expect(textsOf(fake.sentMessages(group.id))).toEqual(['ตัวหนา ลับมาก']);
    fake.failNext('editMessageText', { error_code: 400, description: 'Bad Request: MESSAGE_TOO_LONG ลับมาก' });
    live.show('**ตัวหนา** ลับมาก ต่อ');
    scheduler.advance(editIntervalMs);
    await scheduler.untilPending();
    const warned = records.filter((record) => record.msg === 'telegram live answer: refused; no more previews for this answer');
    expect(warned).toHaveLength(1);
    // Refused once, the preview stops: no call for later texts.
    const calls = fake.calls.length;
    live.show('**ตัวหนา** ลับมาก ต่ออีก');
    scheduler.advance(editIntervalMs);
    await live.end();
    expect(fake.calls.length).toBe(calls);
    expect(JSON.stringify(records)).not.toContain('ลับมาก');
  });
});
