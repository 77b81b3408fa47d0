import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLineAdapter } from '../../../adapters/line/index.js';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import { RedisReminderStore } from '../../../src/reminders/redis-reminder-store.js';
import { ReminderDelivery } from '../../../src/reminders/reminder-delivery.js';
import { reminderOrigin } from '../../../src/reminders/reminder-origin.js';
import { defaultReminderLimits, type NewReminder } from '../../../src/reminders/reminder-store.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import { lineUserId, startFakeLine, type FakeLine } from '../../fakes/line/index.js';
import { ManualScheduler } from '../../support/manual-scheduler.js';
import { memoryLog, type LogRecord } from '../../support/memory-log.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

const redisInstalled = systemProgramPresent(redisServerProgram);

// Two bot processes delivering reminders from ONE Redis-backed store to one fake LINE platform: each has its own
// Redis connection, its own LINE adapter (real @line/bot-sdk), its own delivery loop and a timer the test fires by
// hand, on one clock the test moves. Twenty due reminders, both loops looking at once: each is pushed exactly once.
// A process that dies with its push in flight (LINE took it, the journal never heard): once its lease runs out the
// other sends that one part again — under the same retry key, so LINE does not deliver it twice — and completes it.
// A process frozen mid-send whose lease was taken over cannot, when it thaws, deliver or complete it a second time.

const start = Date.parse('2026-12-07T10:00:00+07:00');
const minute = 60_000;
const leaseMs = minute;
const push = 'POST /v2/bot/message/push';
const users = ['ploy', 'nok', 'ton', 'fah'].map((seed) => lineUserId(seed));

interface BotProcess {
  client: RedisClient;
  store: RedisReminderStore;
  scheduler: ManualScheduler;
  delivery: ReminderDelivery;
  log: LogRecord[];
}

let redis: RedisServer;
let line: FakeLine;
let storeNumber = 0;
let keyPrefix = '';
const clock = { now: start };
const processes: BotProcess[] = [];

beforeAll(async () => {
  if (redisInstalled) redis = await startRedisServer();
});

afterAll(async () => {
  if (redisInstalled) await redis.close();
});

beforeEach(async () => {
  clock.now = start;
  keyPrefix = `two-processes-${++storeNumber}:`;
  line = await startFakeLine();
});

afterEach(async () => {
  // A held push is answered first, so a frozen loop can finish its round and stop.
  line.releaseHeld();
  for (const bot of processes.splice(0)) {
    await bot.delivery.stop();
    if (bot.client.isOpen) bot.client.destroy();
  }
  await line.close();
});

/** One bot process: its Redis connection, LINE adapter and delivery loop, after its first look at the store. */
async function botProcess(): Promise<BotProcess> {
  const client = await connectRedisClient({ url: redis.url, log: silentLogger() });
  const { log, records } = memoryLog('info', [line.channelAccessToken, line.channelSecret]);
  const adapter = createLineAdapter({
    channelSecret: line.channelSecret,
    channelAccessToken: line.channelAccessToken,
    apiBaseUrl: line.url,
    dataApiBaseUrl: line.url,
    replyWindowMs: 50_000,
    logger: log,
    language: 'th',
    timeZone: 'Asia/Bangkok',
    dedupeTtlMs: 24 * 3600_000,
  });
  const store = new RedisReminderStore({ client, keyPrefix });
  const scheduler = new ManualScheduler();
  const delivery = new ReminderDelivery({ store, adapters: [adapter], prepare: async (reply) => reply, now: () => clock.now, log, scheduler, leaseMs });
  const bot = { client, store, scheduler, delivery, log: records };
  processes.push(bot);
  delivery.start();
  await scheduler.untilPending();
  return bot;
}

/** The loop's timer fires: one look at the store, until it has set its next timer. */
async function fire(bot: BotProcess): Promise<void> {
  await bot.scheduler.untilPending();
  bot.scheduler.advance(leaseMs);
  await bot.scheduler.untilPending();
}

/** The 1:1 message a reminder was asked in (what LINE's adapter would have stored). */
function request(userId: string, number: number): InboundMessage {
  return {
    platform: 'line',
    conversationKey: `line:${userId}`,
    spaceKey: `line:${userId}`,
    messageId: `01JREMIND${String(number).padStart(17, '0')}`,
    chatKind: 'direct',
    sender: { id: userId, name: `ผู้ใช้ ${userId.slice(-4)}`, isPlatformAdmin: false },
    text: `/remind อีก 5 นาที งานที่ ${number}`,
    mentionsBot: false,
    repliesToBot: false,
    attachments: [],
    receivedAt: new Date(start),
  };
}

async function addReminder(bot: BotProcess, userId: string, number: number): Promise<void> {
  const message = request(userId, number);
  const reminder: NewReminder = {
    spaceKey: message.spaceKey,
    userKey: `line:${userId}`,
    userName: message.sender.name,
    text: `งานที่ ${number}`,
    dueAt: start + 5 * minute + number * 1000,
    timeZone: 'Asia/Bangkok',
    language: 'th',
    origin: reminderOrigin(message),
    createdAt: start,
  };
  const result = await bot.store.add(reminder, defaultReminderLimits);
  if (!result.added) throw new Error(`reminder ${number} not added: ${result.reason}`);
}

const sentCount = (bot: BotProcess) => bot.log.filter((record) => record.msg === 'reminder sent').length;
const subjects = () => line.sentMessages().map((message) => message.text?.split('\n')[0]);

describe.skipIf(!redisInstalled)('LINE reminders from two bot processes over one Redis', () => {
  it('delivers each of 20 due reminders exactly once, both loops looking at once', async () => {
    const [first, second] = [await botProcess(), await botProcess()] as const;
    for (let number = 1; number <= 20; number++) await addReminder(number % 2 === 0 ? first : second, users[number % users.length]!, number);
    clock.now = start + 10 * minute;

    await Promise.all([fire(first), fire(second)]);
    // And again, each: nothing is left for either.
    await Promise.all([fire(second), fire(first)]);
    clock.now += 10 * minute;
    await Promise.all([fire(first), fire(second)]);

    const expected = Array.from({ length: 20 }, (_, index) => `⏰ เตือนความจำ: งานที่ ${index + 1}`);
    expect(subjects().sort()).toEqual(expected.sort());
    expect(line.sentMessages().every((message) => message.via === 'push')).toBe(true);
    for (const userId of users) expect(line.sentMessages(userId)).toHaveLength(5);
    const keys = line.callsOf(push).map((call) => call.retryKey);
    expect(keys).toHaveLength(20);
    expect(new Set(keys).size).toBe(20);
    expect(line.quotaUsage()).toBe(20);
    // Both took part: a claim hands out at most ten, so each loop claimed (and sent) one half.
    expect([sentCount(first), sentCount(second)]).toEqual([10, 10]);
    expect(await first.store.count()).toBe(0);
  });

  it('after a process died with its push in flight, the other sends that part again once the lease ends: delivered once', async () => {
    const [dying, survivor] = [await botProcess(), await botProcess()] as const;
    await addReminder(dying, users[0]!, 1);
    clock.now = start + 6 * minute;

    // The dying process claims it and pushes; LINE takes the push while the process is still waiting for the answer.
    line.holdNext(push);
    dying.scheduler.advance(leaseMs);
    await line.waitForCall(push, (call) => call.outcome !== undefined && 'held' in call.outcome);
    // It dies: its Redis connection is gone before it can write down that the part was sent.
    dying.client.destroy();
    line.releaseHeld();
    await dying.scheduler.untilPending();
    expect(line.sentMessages(users[0])).toHaveLength(1);
    expect(await survivor.store.list(`line:${users[0]}`)).toMatchObject([{ number: 1, sentParts: [] }]);

    // Its lease holds: the other process leaves it alone.
    clock.now += leaseMs - 1000;
    await fire(survivor);
    expect(line.callsOf(push)).toHaveLength(1);

    // The lease ran out: the part in flight is sent again, under the same retry key; LINE had delivered it already.
    clock.now += 2000;
    await fire(survivor);
    const [lost, again] = line.callsOf(push);
    expect(again?.retryKey).toBe(lost?.retryKey);
    expect(again?.outcome).toMatchObject({ status: 409 });
    expect(line.sentMessages(users[0]).map((message) => message.text)).toEqual([`⏰ เตือนความจำ: งานที่ 1\n(ตั้งโดย ผู้ใช้ ${users[0]!.slice(-4)})`]);
    expect(line.quotaUsage()).toBe(1);
    expect(sentCount(survivor)).toBe(1);
    expect(await survivor.store.count()).toBe(0);

    await fire(survivor);
    expect(line.callsOf(push)).toHaveLength(2);
  });

  it('a process frozen mid-send whose lease was taken over neither delivers nor completes it again when it thaws', async () => {
    const [frozen, other] = [await botProcess(), await botProcess()] as const;
    await addReminder(frozen, users[1]!, 2);
    clock.now = start + 6 * minute;

    line.holdNext(push);
    frozen.scheduler.advance(leaseMs);
    await line.waitForCall(push, (call) => call.outcome !== undefined && 'held' in call.outcome);

    clock.now += leaseMs + 1000;
    await fire(other);
    expect(line.sentMessages(users[1])).toHaveLength(1);
    expect(await other.store.count()).toBe(0);

    // It thaws: LINE refuses its push as already accepted, and the store refuses its journal (the lease is gone).
    line.releaseHeld();
    await frozen.scheduler.untilPending();
    expect(line.callsOf(push).map((call) => call.outcome)).toMatchObject([{ status: 409 }, { status: 200 }]);
    expect(line.sentMessages(users[1])).toHaveLength(1);
    expect(line.quotaUsage()).toBe(1);
    expect(sentCount(frozen)).toBe(0);
    expect(sentCount(other)).toBe(1);
  });
});
