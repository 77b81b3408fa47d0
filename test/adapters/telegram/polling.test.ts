import { Telegram } from 'telegraf';
import type { Update } from 'telegraf/types';
import { afterEach, describe, expect, it } from 'vitest';
import { UpdatePoller } from '../../../adapters/telegram/polling.js';
import { privateChat, startFakeTelegram, textMessageUpdate, tooManyRequests, user, type FakeTelegram } from '../../fakes/telegram/index.js';
import { memoryLog } from '../../support/memory-log.js';

// The long-polling loop through real telegraf against the fake Bot API: an update is confirmed (the offset moves
// past it) only after it was stored, so a failed store is asked for again instead of lost.

const somchai = user(501, 'Somchai');
const chat = privateChat(somchai);

let fake: FakeTelegram | undefined;
let poller: UpdatePoller | undefined;
let running: Promise<void> | undefined;
afterEach(async () => {
  poller?.stop();
  await running;
  await fake?.close();
  fake = poller = running = undefined;
});

interface Started {
  fake: FakeTelegram;
  stored: number[];
  waits: number[];
  warnings(): string[];
}

/** A poller whose `handle` fails for the update ids in `failOnce` the first time each is seen. */
async function startPoller(failOnce: Set<number>): Promise<Started> {
  const started = await startFakeTelegram({ chats: [chat] });
  fake = started;
  const stored: number[] = [];
  const waits: number[] = [];
  const { log, records } = memoryLog('warn');
  poller = new UpdatePoller({
    telegram: new Telegram(started.token, { apiRoot: started.url }),
    allowedUpdates: ['message'],
    handle: (update: Update) => {
      if (failOnce.delete(update.update_id)) return Promise.reject(new Error('SQLITE_FULL: database or disk is full'));
      stored.push(update.update_id);
      return Promise.resolve();
    },
    logger: log,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    timeoutSeconds: 1,
  });
  ({ running } = await poller.start());
  return { fake: started, stored, waits, warnings: () => records.map((record) => record.msg) };
}

const offsetPast = (id: number) => (call: { params: Record<string, unknown> }) => Number(call.params.offset) > id;

describe('UpdatePoller', () => {
  it('confirms each batch only after every update in it was stored, in order', async () => {
    const { fake: telegram, stored } = await startPoller(new Set());
    const pushed = [1, 2, 3].map((n) => telegram.pushUpdate(textMessageUpdate({ chat, from: somchai, text: `ข้อความ ${n}` })));
    const last = pushed[2]?.update_id ?? 0;
    await telegram.waitForCall('getUpdates', offsetPast(last));
    expect(stored).toEqual(pushed.map((update) => update?.update_id));
  });

  it('asks again for an update whose storing failed, and for the ones after it, after a backoff', async () => {
    const first = 100_000_001;
    const { fake: telegram, stored, waits, warnings } = await startPoller(new Set([first + 1]));
    for (const n of [1, 2, 3]) telegram.pushUpdate(textMessageUpdate({ chat, from: somchai, text: `ข้อความ ${n}` }));
    await telegram.waitForCall('getUpdates', offsetPast(first + 2));
    // The first update was confirmed; the failed one and the one after it came again.
    const offsets = telegram.callsOf('getUpdates').map((call) => Number(call.params.offset));
    expect(offsets).toContain(first + 1);
    expect(stored.filter((id) => id === first)).toHaveLength(1);
    expect(stored).toContain(first + 1);
    expect(new Set(stored)).toEqual(new Set([first, first + 1, first + 2]));
    expect(waits).toEqual([1000]);
    expect(warnings()).toContain('telegram polling: updates not stored yet, asking again');
  });

  it('waits the retry_after of a 429 on getUpdates, then goes on', async () => {
    const { fake: telegram, stored, waits } = await startPoller(new Set());
    telegram.failNext('getUpdates', tooManyRequests(7));
    const pushed = telegram.pushUpdate(textMessageUpdate({ chat, from: somchai, text: 'ยังอยู่ไหม' }));
    await telegram.waitForCall('getUpdates', offsetPast(pushed?.update_id ?? 0));
    expect(waits).toEqual([7000]);
    expect(stored).toEqual([pushed?.update_id]);
  });

  it('fails start at once on a revoked token (401)', async () => {
    const started = await startFakeTelegram();
    fake = started;
    const { log } = memoryLog('warn');
    const failing = new UpdatePoller({
      telegram: new Telegram('123:not-the-token', { apiRoot: started.url }),
      allowedUpdates: ['message'],
      handle: () => Promise.resolve(),
      logger: log,
      sleep: () => Promise.resolve(),
    });
    await expect(failing.start()).rejects.toMatchObject({ code: 401 });
  });
});
