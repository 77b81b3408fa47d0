import { Telegram } from 'telegraf';
import type { Update } from 'telegraf/types';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UpdatePoller } from '../../../adapters/telegram/polling.js';
import { privateChat, startFakeTelegram, textMessageUpdate, user, type FakeTelegram } from '../../fakes/telegram/index.js';
import { memoryLog } from '../../support/memory-log.js';

// A 409 Conflict from getUpdates (another poller with the same token, e.g. a process not sharing Redis) is waited
// out: one clear warning, a back-off, polling again — never a crash, neither at start nor in the loop.

const somchai = user(501, 'Somchai');
const chat = privateChat(somchai);
const conflictWarning = /^telegram polling: 409 Conflict, another process polls this bot token/;

let fake: FakeTelegram | undefined;
let poller: UpdatePoller | undefined;
let running: Promise<void> | undefined;
afterEach(async () => {
  poller?.stop();
  releaseWaits();
  await running;
  await fake?.close();
  fake = poller = running = undefined;
});

/** Backoff waits the test ends by hand: a wait is an event, not a timer. */
const waiting: (() => void)[] = [];
const waits: number[] = [];
function releaseWaits(): void {
  for (const release of waiting.splice(0)) release();
}
const handSleep = (ms: number): Promise<void> => {
  waits.push(ms);
  return new Promise((resolve) => waiting.push(resolve));
};

function newPoller(started: FakeTelegram, stored: number[]) {
  const { log, records } = memoryLog('warn', [started.token]);
  poller = new UpdatePoller({
    telegram: new Telegram(started.token, { apiRoot: started.url }),
    allowedUpdates: ['message'],
    handle: (update: Update) => Promise.resolve(void stored.push(update.update_id)),
    logger: log,
    sleep: handSleep,
    timeoutSeconds: 5,
  });
  return { poller, warnings: () => records.filter((record) => conflictWarning.test(record.msg)) };
}

const until = (condition: () => boolean): Promise<void> => vi.waitFor(() => expect(condition()).toBe(true), { timeout: 5000, interval: 10 });

describe('UpdatePoller and 409 Conflict', () => {
  it('warns once, backs off and polls on when another poller ends its long poll, and gets the next update', async () => {
    fake = await startFakeTelegram({ chats: [chat] });
    waits.length = 0;
    const stored: number[] = [];
    const { poller: own, warnings } = newPoller(fake, stored);
    ({ running } = await own.start());
    const other = new Telegram(fake.token, { apiRoot: fake.url });
    for (const round of [1, 2]) {
      // Ours is held open; the other poller's call ends it with 409, and ours waits before asking again.
      await fake.waitForCall('getUpdates', (call) => call.params.timeout === 5 && call.outcome === undefined);
      const intruder = other.callApi('getUpdates', { offset: 0, timeout: 0 });
      await until(() => waits.length === round);
      await intruder;
      expect(own.inConflict).toBe(true);
      releaseWaits();
    }
    expect(warnings()).toHaveLength(1);
    expect(waits).toEqual([1000, 2000]);
    const pushed = fake.pushUpdate(textMessageUpdate({ chat, from: somchai, text: 'ยังรับได้ไหม' }));
    await fake.waitForCall('getUpdates', (call) => Number(call.params.offset) > (pushed?.update_id ?? 0));
    expect(stored).toEqual([pushed?.update_id]);
    expect(own.inConflict).toBe(false);
  });

  it('does not fail start when its first poll meets a conflict: it backs off and then polls', async () => {
    fake = await startFakeTelegram({ chats: [chat] });
    waits.length = 0;
    // As a poller that started after another one meets it: its start-up poll answered 409.
    fake.failNext('getUpdates', {
      error_code: 409,
      description: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
    });
    const { poller: own, warnings } = newPoller(fake, []);
    ({ running } = await own.start());
    await until(() => waits.length === 1);
    expect(warnings()).toHaveLength(1);
    releaseWaits();
    await fake.waitForCall('getUpdates', (call) => call.params.timeout === 5 && call.outcome === undefined);
  });
});
