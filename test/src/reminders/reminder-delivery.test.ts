import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { reminderOrigin } from '../../../src/reminders/reminder-origin.js';
import { ReminderDelivery, type Scheduler } from '../../../src/reminders/reminder-delivery.js';
import type { NewReminder, ReminderStore } from '../../../src/reminders/reminder-store.js';
import { SqliteReminderStore } from '../../../src/reminders/sqlite-reminder-store.js';
import type { DeliveryJournal, Responder } from '../../../src/shared/channel.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { InboundMessage, Platform, Reply } from '../../../src/shared/types.js';

// The delivery loop over a real SQLite store, with time moved by hand: a reminder goes out once when due (also with
// two loops over one store, as two processes would), late ones say so, recurring ones move on, a send that fails is
// tried again and at last given up, a platform not started yet waits, a crash mid-send repeats only the part in flight.

const start = Date.parse('2026-12-07T03:00:00Z'); // Monday 10:00 in Bangkok
const minute = 60_000;

const request: InboundMessage = {
  platform: 'telegram',
  conversationKey: 'telegram:-100',
  spaceKey: 'telegram:-100',
  messageId: '-100:55',
  chatKind: 'group',
  sender: { id: '42', name: 'มานี', isPlatformAdmin: false },
  text: 'เตือนประชุมอีก 30 นาที',
  mentionsBot: true,
  repliesToBot: false,
  attachments: [],
  receivedAt: new Date(start),
};

function reminder(fields: Partial<NewReminder> = {}): NewReminder {
  return {
    spaceKey: 'telegram:-100',
    userKey: 'telegram:42',
    userName: 'มานี',
    text: 'ประชุม',
    dueAt: start + 30 * minute,
    timeZone: 'Asia/Bangkok',
    language: 'th',
    origin: reminderOrigin(request),
    createdAt: start,
    ...fields,
  };
}

/** Records what was sent; `failures` sends throw first; `crashAfterPart0` throws once right after part 0 went out. */
class RecordingAdapter {
  readonly platform: Platform = 'telegram';
  readonly sent: { conversationKey: string; text: string; replyTo?: string }[] = [];
  failures = 0;
  crashAfterPart0 = false;

  responderFor(message: InboundMessage): Responder {
    return {
      send: async (reply: Reply, journal: DeliveryJournal) => {
        if (this.failures > 0) {
          this.failures--;
          throw new Error('chat not found');
        }
        const parts = reply.text.split('\n');
        for (const [index, part] of parts.entries()) {
          if (journal.isSent(index)) continue;
          await journal.sending(index);
          this.sent.push({ conversationKey: message.conversationKey, text: part, ...(reply.replyTo ? { replyTo: reply.replyTo } : {}) });
          await journal.sent(index);
          if (index === 0 && this.crashAfterPart0) {
            this.crashAfterPart0 = false;
            throw new Error('process died');
          }
        }
      },
    };
  }
}

const idleScheduler = (): Scheduler & { delays: number[] } => {
  const delays: number[] = [];
  return { delays, schedule: (delayMs) => (delays.push(delayMs), () => undefined) };
};

function loop(store: ReminderStore, adapter: RecordingAdapter, clock: { now: number }, extra: { started?: boolean } = {}) {
  const scheduler = idleScheduler();
  const delivery = new ReminderDelivery({
    store,
    adapters: [adapter],
    platformStarted: () => extra.started ?? true,
    prepare: async (reply) => reply,
    now: () => clock.now,
    log: silentLogger(),
    scheduler,
    leaseMs: minute,
  });
  delivery.start();
  return { delivery, scheduler };
}

describe('ReminderDelivery', () => {
  it('sends a reminder once, when it is due, in reply to the request, and deletes it', async () => {
    const store = new SqliteReminderStore(new Database(':memory:'));
    await store.add(reminder(), { perSpace: 50, perUser: 10 });
    const adapter = new RecordingAdapter();
    const clock = { now: start };
    const { delivery, scheduler } = loop(store, adapter, clock);
    await delivery.wake();
    expect(adapter.sent).toEqual([]);
    // It sleeps until the reminder is due (at most the poll interval).
    expect(scheduler.delays.at(-1)).toBe(30_000);
    clock.now = start + 30 * minute;
    await delivery.wake();
    expect(adapter.sent.map((part) => part.text)).toEqual(['⏰ เตือนความจำ: ประชุม', '(ตั้งโดย มานี)']);
    expect(adapter.sent[0]).toMatchObject({ conversationKey: 'telegram:-100', replyTo: '-100:55' });
    await delivery.wake();
    expect(adapter.sent).toHaveLength(2);
    expect(await store.count()).toBe(0);
    await delivery.stop();
  });

  it('with two loops over one store (two processes) sends each reminder exactly once', async () => {
    const database = new Database(':memory:');
    const first = new SqliteReminderStore(database);
    const second = new SqliteReminderStore(database);
    for (let index = 0; index < 12; index++) await first.add(reminder({ text: `เรื่อง ${index}`, userKey: `telegram:${index}` }), { perSpace: 50, perUser: 10 });
    const adapter = new RecordingAdapter();
    const clock = { now: start + 31 * minute };
    const one = loop(first, adapter, clock);
    const two = loop(second, adapter, clock);
    await Promise.all([one.delivery.wake(), two.delivery.wake(), one.delivery.wake(), two.delivery.wake()]);
    await Promise.all([one.delivery.wake(), two.delivery.wake()]);
    const headlines = adapter.sent.filter((part) => part.text.startsWith('⏰')).map((part) => part.text);
    expect(headlines.sort()).toEqual(Array.from({ length: 12 }, (_unused, index) => `⏰ เตือนความจำ: เรื่อง ${index}`).sort());
    expect(await first.count()).toBe(0);
  });

  it('says a reminder is late when no process ran at its time, and moves a recurring one past now', async () => {
    const store = new SqliteReminderStore(new Database(':memory:'));
    // Every day at 09:00 in Bangkok, first due Tuesday 8 December; the bot is back on Thursday 10 December at 10:00.
    await store.add(
      reminder({ text: 'ยืนประชุม', dueAt: Date.parse('2026-12-08T09:00:00+07:00'), recurrence: { kind: 'daily' }, timeOfDay: { hour: 9, minute: 0 } }),
      {
        perSpace: 50,
        perUser: 10,
      },
    );
    const adapter = new RecordingAdapter();
    const clock = { now: Date.parse('2026-12-10T10:00:00+07:00') };
    const { delivery } = loop(store, adapter, clock);
    await delivery.wake();
    expect(adapter.sent.map((part) => part.text)).toEqual([
      '⏰ เตือนความจำ: ยืนประชุม',
      '(ตั้งโดย มานี)',
      '(ส่งช้ากว่ากำหนด: ควรเตือนเมื่อ วันอังคารที่ 8 ธันวาคม 2569 เวลา 09:00 น. แต่บอทไม่ได้ทำงานในช่วงนั้น)',
      'ครั้งถัดไป: วันศุกร์ที่ 11 ธันวาคม 2569 เวลา 09:00 น.',
    ]);
    // Sent once for the three days missed; it stays, for Friday.
    const [kept] = await store.list('telegram:-100');
    expect(kept?.dueAt).toBe(Date.parse('2026-12-11T09:00:00+07:00'));
    await delivery.stop();
  });

  it('tries a failed send again after the lease, and gives the occurrence up after five failures', async () => {
    const store = new SqliteReminderStore(new Database(':memory:'));
    await store.add(reminder(), { perSpace: 50, perUser: 10 });
    const adapter = new RecordingAdapter();
    adapter.failures = 2;
    const clock = { now: start + 30 * minute };
    const { delivery, scheduler } = loop(store, adapter, clock);
    await delivery.wake();
    expect(adapter.sent).toEqual([]);
    // Nothing went out: no look at once (the claimed one is next due when its lease ends; the poll comes first).
    expect(scheduler.delays.at(-1)).toBe(30_000);
    clock.now += minute + 1;
    await delivery.wake();
    clock.now += minute + 1;
    await delivery.wake();
    expect(adapter.sent.map((part) => part.text)[0]).toBe('⏰ เตือนความจำ: ประชุม');

    await store.add(reminder({ text: 'ห้องที่ถูกลบ' }), { perSpace: 50, perUser: 10 });
    adapter.failures = 5;
    for (let attempt = 0; attempt < 5; attempt++) {
      clock.now += minute + 1;
      await delivery.wake();
    }
    expect(await store.count()).toBe(0);
    expect(adapter.sent.some((part) => part.text.includes('ห้องที่ถูกลบ'))).toBe(false);
  });

  it('waits while the platform has not started', async () => {
    const store = new SqliteReminderStore(new Database(':memory:'));
    await store.add(reminder(), { perSpace: 50, perUser: 10 });
    const adapter = new RecordingAdapter();
    const clock = { now: start + 30 * minute };
    const state = { started: false };
    const scheduler = idleScheduler();
    const delivery = new ReminderDelivery({
      store,
      adapters: [adapter],
      platformStarted: () => state.started,
      prepare: async (reply) => reply,
      now: () => clock.now,
      log: silentLogger(),
      scheduler,
      leaseMs: minute,
    });
    delivery.start();
    await delivery.wake();
    expect(adapter.sent).toEqual([]);
    state.started = true;
    clock.now += minute + 1;
    await delivery.wake();
    expect(adapter.sent).toHaveLength(2);
  });

  it('after a crash mid-send, the next claimer sends only the parts not sent yet', async () => {
    const database = new Database(':memory:');
    const store = new SqliteReminderStore(database);
    await store.add(reminder(), { perSpace: 50, perUser: 10 });
    const adapter = new RecordingAdapter();
    adapter.crashAfterPart0 = true;
    const clock = { now: start + 30 * minute };
    const first = loop(store, adapter, clock);
    await first.delivery.wake();
    await first.delivery.stop();
    expect(adapter.sent.map((part) => part.text)).toEqual(['⏰ เตือนความจำ: ประชุม']);
    // Another process, after the lease of the first ran out.
    clock.now += minute + 1;
    const second = loop(new SqliteReminderStore(database), adapter, clock);
    await second.delivery.wake();
    expect(adapter.sent.map((part) => part.text)).toEqual(['⏰ เตือนความจำ: ประชุม', '(ตั้งโดย มานี)']);
    expect(await store.count()).toBe(0);
  });

  it('sends a moved space’s reminder to its new chat, not as a reply to the message left in the old one', async () => {
    const store = new SqliteReminderStore(new Database(':memory:'));
    await store.add(reminder(), { perSpace: 50, perUser: 10 });
    await store.moveSpace('telegram:-100', 'telegram:-1009');
    const adapter = new RecordingAdapter();
    const { delivery } = loop(store, adapter, { now: start + 30 * minute });
    await delivery.wake();
    expect(adapter.sent[0]).toMatchObject({ conversationKey: 'telegram:-1009', replyTo: '-100:55-moved' });
  });
});
