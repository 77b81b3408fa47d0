import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { inertWorkerStores } from '../../support/worker-stores.js';
import { InboundWorker } from '../../../src/pipeline/inbound-worker.js';
import type { MessageReplies } from '../../../src/pipeline/reply-journal.js';
import { SqliteInboundQueue } from '../../../src/queue/sqlite-inbound-queue.js';
import { InProcessTurnQueue } from '../../../src/limits/in-process-turn-queue.js';
import type { Responder } from '../../../src/shared/channel.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import { memoryLog } from '../../support/memory-log.js';
import { deferred, queuedMessage as message } from '../../support/queued-message.js';

// The inbound worker over the real SQLite queue: per-conversation FIFO, conversations side by side, resume after
// a restart, shutdown. The "router" here is a stub whose every message waits for the test to let it finish.

const folders: string[] = [];
const closers: (() => void)[] = [];
afterEach(() => {
  closers.splice(0).forEach((close) => close());
  folders.splice(0).forEach((folder) => rmSync(folder, { recursive: true, force: true }));
});

function dataDirectory(): string {
  const created = mkdtempSync(path.join(os.tmpdir(), 'saeng-worker-'));
  folders.push(created);
  return created;
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

function setup(
  options: {
    dataDir?: string;
    concurrency?: number;
    responder?: Responder | undefined;
    maxAttempts?: number;
    retryDelayMs?: number;
    platformStarted?: () => boolean;
  } = {},
) {
  const queue = new SqliteInboundQueue({ dataDir: options.dataDir ?? ':memory:', dedupeTtlMs: 60_000, log: memoryLog().log });
  closers.push(() => queue.close());
  const started: string[] = [];
  const finished: string[] = [];
  const gates = new Map<string, ReturnType<typeof deferred<void>>>();
  const startWaiters = new Map<string, ReturnType<typeof deferred<void>>>();
  const failing = new Set<string>();
  const setAside: string[] = [];
  const gate = (id: string) => gates.get(id) ?? gates.set(id, deferred()).get(id)!;
  const startWaiter = (id: string) => startWaiters.get(id) ?? startWaiters.set(id, deferred()).get(id)!;
  const log = memoryLog('info');
  const responder: Responder = { send: async () => undefined };
  const plantedResponder = 'responder' in options ? options.responder : responder;
  const worker = new InboundWorker({
    queue,
    turns: new InProcessTurnQueue(options.concurrency ?? 4),
    ...inertWorkerStores(),
    router: {
      process: async (inbound: InboundMessage, _responder: Responder, _replies: MessageReplies) => {
        started.push(inbound.messageId);
        startWaiter(inbound.messageId).resolve();
        await gate(inbound.messageId).promise;
        if (failing.has(inbound.messageId)) throw new Error('platform refused the send');
        finished.push(inbound.messageId);
      },
      setAside: async (inbound: InboundMessage) => void setAside.push(inbound.messageId),
    },
    // No responder: the platform has no adapter in this process.
    adapters: plantedResponder ? [{ platform: 'telegram', responderFor: () => plantedResponder }] : [],
    ...(options.platformStarted ? { platformStarted: options.platformStarted } : {}),
    log: log.log,
    maxAttempts: options.maxAttempts,
    retryDelayMs: options.retryDelayMs,
  });
  return {
    queue,
    worker,
    started,
    finished,
    failing,
    setAside,
    records: log.records,
    release: (id: string) => gate(id).resolve(),
    whenStarted: (id: string) => startWaiter(id).promise,
  };
}

describe('InboundWorker', () => {
  it('stores without processing until resume(), then runs what was stored in order', async () => {
    const test = setup();
    expect(await test.worker.accept(message('1'))).toBe('stored');
    expect(await test.worker.accept(message('1'))).toBe('duplicate');
    await flush();
    expect(test.started).toEqual([]);
    await test.worker.resume();
    await test.whenStarted('1');
    test.release('1');
    await test.worker.idle();
    expect(test.finished).toEqual(['1']);
    expect(await test.queue.next('telegram:1')).toBeUndefined();
  });

  it('runs one message at a time per conversation, in arrival order, and conversations side by side', async () => {
    const test = setup({ concurrency: 2 });
    await test.worker.resume();
    for (const [id, conversation] of [
      ['a1', 'telegram:a'],
      ['a2', 'telegram:a'],
      ['b1', 'telegram:b'],
      ['a3', 'telegram:a'],
    ] as const) {
      await test.worker.accept(message(id, conversation));
    }
    await Promise.all([test.whenStarted('a1'), test.whenStarted('b1')]);
    await flush();
    expect(test.started).toEqual(['a1', 'b1']);
    test.release('a3');
    test.release('a2');
    await flush();
    expect(test.started).toEqual(['a1', 'b1']);
    test.release('a1');
    await test.whenStarted('a3');
    expect(test.finished).toEqual(['a1', 'a2']);
    test.release('b1');
    await test.worker.idle();
    expect(test.finished).toEqual(['a1', 'a2', 'a3', 'b1']);
  });

  it('holds to the global limit: with one slot, another conversation waits', async () => {
    const test = setup({ concurrency: 1 });
    await test.worker.resume();
    await test.worker.accept(message('a1', 'telegram:a'));
    await test.worker.accept(message('b1', 'telegram:b'));
    await test.whenStarted('a1');
    await flush();
    expect(test.started).toEqual(['a1']);
    test.release('a1');
    await test.whenStarted('b1');
    test.release('b1');
    await test.worker.idle();
    expect(test.finished).toEqual(['a1', 'b1']);
  });

  it('resumes after a restart what the last process left, before the messages accepted since', async () => {
    const dataDir = dataDirectory();
    const before = setup({ dataDir });
    await before.worker.resume();
    await before.worker.accept(message('a1', 'telegram:a'));
    await before.worker.accept(message('b1', 'telegram:b'));
    await Promise.all([before.whenStarted('a1'), before.whenStarted('b1')]);
    // "Crash": the process goes away mid-turn; nothing more is written.
    before.queue.close();
    closers.splice(0);

    const after = setup({ dataDir, concurrency: 1 });
    await after.worker.accept(message('a1', 'telegram:a')); // the platform re-delivers: a duplicate
    await after.worker.accept(message('a2', 'telegram:a'));
    await after.worker.resume();
    for (const id of ['a1', 'a2', 'b1']) after.release(id);
    await after.worker.idle();
    // The interrupted message comes first in its conversation; across conversations there is no order.
    expect(after.finished.filter((id) => id.startsWith('a'))).toEqual(['a1', 'a2']);
    expect([...after.finished].sort()).toEqual(['a1', 'a2', 'b1']);
    const resumed = after.records.filter((record) => record.msg === 'resuming a message after a restart');
    expect(resumed.map((record) => [record.messageId, record.attempts]).sort()).toEqual([
      ['a1', 2],
      ['b1', 2],
    ]);
  });

  it('stop(): lets the running message finish, starts no other, leaves the rest stored', async () => {
    const test = setup({ concurrency: 1 });
    await test.worker.resume();
    await test.worker.accept(message('a1', 'telegram:a'));
    await test.worker.accept(message('a2', 'telegram:a'));
    await test.worker.accept(message('b1', 'telegram:b'));
    await test.whenStarted('a1');
    const stopped = test.worker.stop();
    test.release('a1');
    test.release('a2');
    test.release('b1');
    await stopped;
    expect(test.finished).toEqual(['a1']);
    expect((await test.queue.next('telegram:a'))?.message.messageId).toBe('a2');
    expect((await test.queue.next('telegram:b'))?.message.messageId).toBe('b1');
  });

  it('gives up a message whose reply could not be sent, and goes on with the next', async () => {
    const test = setup();
    await test.worker.resume();
    test.failing.add('1');
    test.release('1');
    test.release('2');
    await test.worker.accept(message('1'));
    await test.worker.accept(message('2'));
    await test.worker.idle();
    expect(test.finished).toEqual(['2']);
    expect(test.records).toContainEqual(expect.objectContaining({ msg: 'message not answered', messageId: '1', error: 'Error' }));
  });

  it("a queue write that failed for a moment is tried again without waiting for the conversation's next message", async () => {
    const test = setup({ retryDelayMs: 1 });
    const finish = test.queue.finish.bind(test.queue);
    let refusals = 0;
    // The store refuses one write (a full disk freed a moment later, a lock): the drain fails as a whole.
    test.queue.finish = async (sequence, outcome) => {
      if (refusals++ === 0) throw new Error('SQLITE_FULL: database or disk is full');
      return finish(sequence, outcome);
    };
    await test.worker.resume();
    test.release('1');
    await test.worker.accept(message('1'));
    for (let look = 0; look < 1000 && (await test.queue.stats()).pending > 0; look++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect((await test.queue.stats()).pending).toBe(0);
    expect(test.records).toContainEqual(expect.objectContaining({ msg: 'inbound queue failed: the conversation is looked at again shortly' }));
    expect(test.records).not.toContainEqual(expect.objectContaining({ msg: 'message not answered' }));
    // Run again (this stub keeps no reply journal; the router's journal then only delivers what was stored).
    expect(test.finished).toEqual(['1', '1']);
  });

  it('leaves a message queued when its platform has no adapter in this process', async () => {
    const test = setup({ responder: undefined });
    await test.worker.resume();
    await test.worker.accept(message('1'));
    await test.worker.idle();
    expect(test.started).toEqual([]);
    expect((await test.queue.next('telegram:1'))?.message.messageId).toBe('1');
  });

  it('answers, in order and once, what waited for a platform whose start finished late (wakeOpen)', async () => {
    let platformStarted = false;
    const responder: Responder = { send: async () => undefined };
    const test = setup({ responder, platformStarted: () => platformStarted });
    await test.worker.resume();
    await test.worker.accept(message('1'));
    await test.worker.accept(message('2'));
    await test.worker.idle();
    expect(test.started).toEqual([]);

    platformStarted = true;
    await test.worker.wakeOpen();
    test.release('1');
    test.release('2');
    await test.whenStarted('2');
    await test.worker.idle();
    expect(test.finished).toEqual(['1', '2']);
    expect(await test.queue.next('telegram:1')).toBeUndefined();
  });

  it('does not lose the wake of a platform that starts while its conversation is being handed over', async () => {
    let platformStarted = false;
    let woken: Promise<void> = Promise.resolve();
    const responder: Responder = { send: async () => undefined };
    const test = setup({
      responder,
      platformStarted: () => {
        if (platformStarted) return true;
        // The platform's start finishes right as the drain finds it not started.
        platformStarted = true;
        woken = test.worker.wakeOpen();
        return false;
      },
    });
    await test.worker.resume();
    test.release('1');
    await test.worker.accept(message('1'));
    await test.whenStarted('1');
    await woken;
    await test.worker.idle();
    expect(test.finished).toEqual(['1']);
  });

  it('resumes a message interrupted once; sets aside one interrupted twice, tells the user once, goes on with the next', async () => {
    const dataDir = dataDirectory();
    const crashWhileOn = async (id: string) => {
      const running = setup({ dataDir });
      await running.worker.resume();
      await running.worker.accept(message(id));
      await running.whenStarted(id);
      // "kill -9": the process goes away mid-turn; nothing more is written.
      running.queue.close();
      closers.splice(0);
    };
    await crashWhileOn('1');
    await crashWhileOn('1'); // the resumed attempt dies too

    const after = setup({ dataDir });
    await after.worker.accept(message('2'));
    await after.worker.resume();
    after.release('2');
    await after.worker.idle();
    expect(after.started).toEqual(['2']);
    expect(after.setAside).toEqual(['1']);
    expect(after.finished).toEqual(['2']);
    expect(after.records).toContainEqual(
      expect.objectContaining({ level: 50, msg: 'message set aside: its handling was interrupted too many times (a crash loop)', messageId: '1', attempts: 3 }),
    );
    // The message's text is never logged.
    expect(JSON.stringify(after.records)).not.toContain('ข้อความ 1');
  });

  it('a crash the process caught (markInFlightCrashed) sets the running message aside on the next start', async () => {
    const dataDir = dataDirectory();
    const before = setup({ dataDir });
    await before.worker.resume();
    await before.worker.accept(message('1'));
    await before.worker.accept(message('x', 'telegram:other'));
    await Promise.all([before.whenStarted('1'), before.whenStarted('x')]);
    before.release('x');
    await expect.poll(async () => (await before.queue.next('telegram:other')) === undefined).toBe(true);
    expect(before.worker.markInFlightCrashed()).toBeUndefined(); // synchronous with SQLite: written already
    before.queue.close();
    closers.splice(0);

    const after = setup({ dataDir });
    await after.worker.resume();
    await after.worker.idle();
    expect(after.setAside).toEqual(['1']);
    expect(after.started).toEqual([]);
  });

  it('does not tell the user twice when telling them died too', async () => {
    const test = setup();
    await test.worker.accept(message('1'));
    const sequence = (await test.queue.next('telegram:1'))?.sequence ?? 0;
    for (let attempt = 0; attempt < 3; attempt += 1) await test.queue.startAttempt(sequence);
    await test.worker.resume();
    await test.worker.idle();
    expect(test.setAside).toEqual([]);
    expect(await test.queue.next('telegram:1')).toBeUndefined();
  });
});
