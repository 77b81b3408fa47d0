import { afterEach, describe, expect, it } from 'vitest';
import { groupSource, lineGroupId, lineUserId, userSource, type SentLineMessage } from '../../fakes/line/index.js';
import { ManualScheduler } from '../../support/manual-scheduler.js';
import { startLineHarness, type LineHarness } from './line-harness.js';

// Reminders through the real @line/bot-sdk on the fake LINE platform, with the app's clock and the delivery loop's
// timer in the test's hands: the confirmation is the reply (free) with the absolute Thai date and time; the reminder
// itself, long after the reply token is gone, is ONE push message counted in the month's quota, and never again;
// a low quota is said in the confirmation, a used-up one refuses the request and stores nothing; a request in words
// to the bot in a group is saved by code, without a model call; a daily one is pushed every day, each under its
// own retry key (LINE drops a push whose key it accepted in the last 24 hours).

const somchai = lineUserId('somchai');
const somsri = lineUserId('somsri');
const team = lineGroupId('team');
const monday10 = Date.parse('2026-12-07T10:00:00+07:00');
const minute = 60_000;
const hour = 60 * minute;
/** LINE tells a bot no names without a profile call: the adapter names a sender by their id's tail. */
const nameOf = (userId: string) => `ผู้ใช้ ${userId.slice(-4)}`;

let harness: LineHarness | undefined;
let scheduler: ManualScheduler;
const clock = { now: monday10 };

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function current(): LineHarness {
  if (!harness) throw new Error('no harness');
  return harness;
}

async function start(quota?: number): Promise<LineHarness> {
  clock.now = monday10;
  scheduler = new ManualScheduler();
  harness = await startLineHarness({
    now: () => new Date(clock.now),
    reminderScheduler: scheduler,
    line: {
      // LINE's own clock (reply tokens, event times, retry keys) runs on real time, moved as far as the app's is.
      clock: () => Date.now() + (clock.now - monday10),
      groups: [
        {
          groupId: team,
          name: 'ทีมขาย',
          members: [
            { userId: somchai, displayName: 'สมชาย' },
            { userId: somsri, displayName: 'สมศรี' },
          ],
        },
      ],
      ...(quota === undefined ? {} : { quota }),
    },
  });
  // The loop's first look (at start) is over: it waits for its timer.
  await scheduler.untilPending();
  return harness;
}

/** The delivery loop's timer fires (the clock already moved): one look at the store, until it set its next timer. */
async function fire(): Promise<void> {
  await scheduler.untilPending();
  scheduler.advance(hour);
  await scheduler.untilPending();
}

/** A 1:1 message from Somchai; the bot's messages to him that it brought. */
async function direct(text: string): Promise<SentLineMessage[]> {
  const before = current().line.sentMessages(somchai).length;
  await current().deliver(current().line.textEvent({ source: userSource(somchai), text }));
  return current().line.sentMessages(somchai).slice(before);
}

const only = (messages: SentLineMessage[]): SentLineMessage => {
  expect(messages).toHaveLength(1);
  return messages[0]!;
};

describe('LINE reminders', () => {
  it('confirms /remind add in the reply with the absolute Thai time; when due, pushes it once (one quota message)', async () => {
    const { line, model } = await start();
    const confirmation = only(await direct('/remind add พรุ่งนี้ 9 โมง ส่งรายงาน'));
    expect(confirmation).toMatchObject({ via: 'reply' });
    expect(confirmation.text).toBe('⏰ ตั้งเตือนแล้ว (#1): ส่งรายงาน\n🗓️ วันอังคารที่ 8 ธันวาคม 2569 เวลา 09:00 น.\nยกเลิกได้ด้วย /remind cancel 1');
    expect(line.quotaUsage()).toBe(0);

    // A minute before: nothing.
    clock.now = Date.parse('2026-12-08T08:59:00+07:00');
    await fire();
    expect(line.sentMessages(somchai)).toHaveLength(1);

    // Past its time: pushed (the request's reply token expired the day before), counted in the quota.
    clock.now = Date.parse('2026-12-08T09:01:00+07:00');
    await fire();
    const reminder = only(line.sentMessages(somchai).slice(1));
    expect(reminder).toMatchObject({ via: 'push', chatId: somchai, text: `⏰ เตือนความจำ: ส่งรายงาน\n(ตั้งโดย ${nameOf(somchai)})` });
    expect(line.quotaUsage()).toBe(1);

    // Fired again, and later still: nothing more.
    await fire();
    clock.now += hour;
    await fire();
    expect(line.sentMessages(somchai)).toHaveLength(2);
    expect(line.callsOf('POST /v2/bot/message/push')).toHaveLength(1);
    expect(line.quotaUsage()).toBe(1);
    expect(only(await direct('/reminders')).text).toContain('ยังไม่มีการเตือนในห้องนี้ครับ');
    expect(model.chatRequests).toHaveLength(0);
  });

  it('says what a reminder costs when fewer than 100 pushes are left this month', async () => {
    const { line } = await start(100);
    // 100 left: nothing said.
    expect(only(await direct('/remind add พรุ่งนี้ 9 โมง ส่งรายงาน')).text).toBe(
      '⏰ ตั้งเตือนแล้ว (#1): ส่งรายงาน\n🗓️ วันอังคารที่ 8 ธันวาคม 2569 เวลา 09:00 น.\nยกเลิกได้ด้วย /remind cancel 1',
    );
    line.setQuota(99);
    expect(only(await direct('/remind add พรุ่งนี้ บ่าย 2 โมง โทรหาลูกค้า')).text).toBe(
      '⏰ ตั้งเตือนแล้ว (#2): โทรหาลูกค้า\n🗓️ วันอังคารที่ 8 ธันวาคม 2569 เวลา 14:00 น.\nยกเลิกได้ด้วย /remind cancel 2\n' +
        'ℹ️ LINE: การเตือนแต่ละครั้งใช้ข้อความ push 1 ข้อความ เดือนนี้เหลืออีก 99 ข้อความ',
    );
    expect(line.quotaUsage()).toBe(0);
  });

  it('refuses politely in Thai, and stores nothing, when the month’s push quota is used up', async () => {
    const { line } = await start(1);
    await direct('/remind add อีก 5 นาที โทรหาลูกค้า');
    clock.now += 6 * minute;
    await fire();
    expect(line.quotaUsage()).toBe(1);

    // The one push of the month is spent: the refusal still goes out, as the reply (free).
    const refusal = only(await direct('/remind add พรุ่งนี้ 9 โมง ส่งรายงาน'));
    expect(refusal).toMatchObject({ via: 'reply' });
    expect(refusal.text).toBe('ขออภัยครับ โควตาข้อความ push ของ LINE เดือนนี้หมดแล้ว บอทจึงส่งการเตือนไม่ได้จนกว่าจะขึ้นเดือนใหม่ (หรือผู้ดูแลอัปเกรดแพ็กเกจ)');
    expect(only(await direct('/reminders')).text).toBe('ยังไม่มีการเตือนในห้องนี้ครับ ตั้งได้ด้วย /remind พรุ่งนี้ 9 โมง ประชุมทีม');
    expect(await current().test.app.storage.reminders.count()).toBe(0);
  });

  it('saves a request in words to the bot in a group without calling the model, and pushes it to the group', async () => {
    const { line, model } = await start();
    const text = '@แสง เตือนประชุมพรุ่งนี้ 9 โมง ด้วยนะ';
    await current().deliver(line.textEvent({ source: groupSource(team, somsri), text, mentions: [{ match: '@แสง', kind: 'self' }] }));
    const confirmation = only(line.sentMessages(team));
    expect(confirmation).toMatchObject({ via: 'reply' });
    expect(confirmation.text).toBe('⏰ ตั้งเตือนแล้ว (#1): ประชุม\n🗓️ วันอังคารที่ 8 ธันวาคม 2569 เวลา 09:00 น.\nยกเลิกได้ด้วย /remind cancel 1');
    expect(model.chatRequests).toHaveLength(0);

    // Group chatter that only mentions a reminder, not addressed to the bot, sets nothing.
    await current().deliver(line.textEvent({ source: groupSource(team, somchai), text: 'อย่าลืมเตือนกันพรุ่งนี้ 9 โมงนะ' }));
    expect(line.sentMessages(team)).toHaveLength(1);

    clock.now = Date.parse('2026-12-08T09:00:00+07:00');
    await fire();
    const pushed = only(line.sentMessages(team).slice(1));
    expect(pushed).toMatchObject({ via: 'push', text: `⏰ เตือนความจำ: ประชุม\n(ตั้งโดย ${nameOf(somsri)})` });
    // LINE counts a group push once per member.
    expect(line.quotaUsage()).toBe(2);
    expect(model.chatRequests).toHaveLength(0);
  });

  it('pushes a daily reminder every day, though the days are less than 24 hours apart', async () => {
    const { line } = await start();
    expect(only(await direct('/remind ทุกวัน 9 โมง ส่งยอดขาย')).text).toContain('ทุกวัน เวลา 09:00 น.');

    // The first one a minute late, the second on time: 23 h 59 min apart, within the life of a retry key.
    clock.now = Date.parse('2026-12-08T09:01:00+07:00');
    await fire();
    clock.now = Date.parse('2026-12-09T09:00:00+07:00');
    await fire();
    const pushes = line.sentMessages(somchai).slice(1);
    expect(pushes.map((message) => [message.via, message.text])).toEqual([
      ['push', `⏰ เตือนความจำ: ส่งยอดขาย\n(ตั้งโดย ${nameOf(somchai)})\nครั้งถัดไป: วันพุธที่ 9 ธันวาคม 2569 เวลา 09:00 น.`],
      ['push', `⏰ เตือนความจำ: ส่งยอดขาย\n(ตั้งโดย ${nameOf(somchai)})\nครั้งถัดไป: วันพฤหัสบดีที่ 10 ธันวาคม 2569 เวลา 09:00 น.`],
    ]);
    const keys = line.callsOf('POST /v2/bot/message/push').map((call) => call.retryKey);
    expect(new Set(keys).size).toBe(2);
    expect(line.quotaUsage()).toBe(2);
  });
});
