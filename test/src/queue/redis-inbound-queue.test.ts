import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inertWorkerStores } from '../../support/worker-stores.js';
import { InboundWorker } from '../../../src/pipeline/inbound-worker.js';
import { queuedReplies } from '../../../src/pipeline/reply-journal.js';
import { LeaseLostError, RedisInboundQueue } from '../../../src/queue/redis-inbound-queue.js';
import { InProcessTurnQueue } from '../../../src/limits/in-process-turn-queue.js';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import type { Responder } from '../../../src/shared/channel.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import { memoryLog } from '../../support/memory-log.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { deferred, queuedMessage as message } from '../../support/queued-message.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

const redisInstalled = systemProgramPresent(redisServerProgram);

// The shared inbound queue on a real redis-server: what the SQLite queue promises (dedupe, order, stored replies,
// parts), plus what several processes need — one process per conversation, fenced writes, and failover of a
// process that stopped (each "process" here is a queue + worker on its own Redis connection).

let redis: RedisServer;
const clients: RedisClient[] = [];
const closers: (() => Promise<unknown>)[] = [];
let prefixCount = 0;

beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.close();
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  for (const client of clients.splice(0)) if (client.isOpen) client.destroy();
});

async function client(): Promise<RedisClient> {
  const connected = await connectRedisClient({ url: redis.url, log: memoryLog().log });
  clients.push(connected);
  return connected;
}

function newPrefix(): string {
  return `test${++prefixCount}:`;
}

async function queue(prefix: string, leaseMs = 60_000, connection?: RedisClient): Promise<RedisInboundQueue> {
  const created = new RedisInboundQueue({ client: connection ?? (await client()), dedupeTtlMs: 60_000, leaseMs, log: memoryLog().log, prefix });
  closers.push(() => created.close());
  return created;
}

/** Polls a condition (each look is a Redis round trip or a worker step), bounded. */
async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let look = 0; look < 2000; look++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`never happened: ${what}`);
}

describe.skipIf(!redisInstalled)('RedisInboundQueue', () => {
  it('dedupes by platform id, keeps each conversation in order and forgets a message once finished', async () => {
    const shared = newPrefix();
    const first = await queue(shared);
    const second = await queue(shared);
    expect(await first.accept(message('1', 'telegram:a'))).toBe('stored');
    expect(await second.accept(message('1', 'telegram:a'))).toBe('duplicate');
    expect(await second.accept(message('2', 'telegram:a'))).toBe('stored');
    expect(await first.accept(message('3', 'telegram:b'))).toBe('stored');
    expect(await first.openConversations()).toEqual(['telegram:a', 'telegram:b']);
    expect((await second.stats()).byPlatform.telegram?.pending).toBe(3);

    const claim = await first.claim('telegram:a');
    expect(claim).toBeDefined();
    expect(await second.claim('telegram:a')).toBeUndefined();
    const head = await first.next('telegram:a');
    expect(head?.message.messageId).toBe('1');
    expect(await first.startAttempt(head!.sequence)).toBe(1);
    await first.storeReply(head!.sequence, 0, { text: 'คำตอบ', files: [] }, true);
    await first.markPart(head!.sequence, 0, 0, 'sent');
    expect((await first.next('telegram:a'))?.answered).toBe(true);
    expect(await first.replies(head!.sequence)).toEqual([{ index: 0, reply: { text: 'คำตอบ', files: [] } }]);
    expect([...(await first.parts(head!.sequence, 0))]).toEqual([[0, 'sent']]);
    await first.finish(head!.sequence, 'done');
    expect((await first.next('telegram:a'))?.message.messageId).toBe('2');
    expect(await second.accept(message('1', 'telegram:a'))).toBe('duplicate');
    expect(await claim!.release()).toBe(true);
    expect(await second.claim('telegram:a')).toBeDefined();
    expect((await second.stats()).pending).toBe(2);
  });

  it('refuses writes from a process whose lease another took over', async () => {
    const shared = newPrefix();
    const slow = await queue(shared, 60_000);
    const other = await queue(shared, 60_000);
    await slow.accept(message('1', 'telegram:c'));
    await slow.claim('telegram:c');
    const entry = await slow.next('telegram:c');
    // The lease as if it had expired and another process had taken it.
    const connection = await client();
    await connection.set(`${shared}lease:telegram:c`, other.owner);
    await expect(slow.storeReply(entry!.sequence, 0, { text: 'x', files: [] }, true)).rejects.toBeInstanceOf(LeaseLostError);
    await expect(slow.finish(entry!.sequence, 'done')).rejects.toBeInstanceOf(LeaseLostError);
    expect((await other.next('telegram:c'))?.answered).toBe(false);
  });

  it('fails fast while Redis is down and works again once it is back', async () => {
    const shared = newPrefix();
    const connection = await client();
    const waiting = await queue(shared, 60_000, connection);
    await waiting.accept(message('1', 'telegram:d'));
    await redis.stop();
    await expect(waiting.accept(message('2', 'telegram:d'))).rejects.toThrow();
    await redis.start();
    await until(() => connection.isReady, 'the client reconnected');
    // The server came back empty (no persistence in tests): the queue keeps working on it.
    expect(await waiting.accept(message('3', 'telegram:d'))).toBe('stored');
  });
});

interface Process {
  worker: InboundWorker;
  queue: RedisInboundQueue;
  connection: RedisClient;
}

describe.skipIf(!redisInstalled)('InboundWorker on the shared queue', () => {
  /** A process: its own connection, queue and worker; `answer` runs each message through the stored-reply journal. */
  async function process(
    shared: string,
    log: string[],
    options: { leaseMs?: number; hold?: (message: InboundMessage) => Promise<void>; maxConversations?: number } = {},
  ) {
    const connection = await client();
    const sharedQueue = await queue(shared, options.leaseMs ?? 60_000, connection);
    const responder: Responder = { send: async () => undefined };
    const worker: InboundWorker = new InboundWorker({
      queue: sharedQueue,
      turns: new InProcessTurnQueue(8),
      ...inertWorkerStores(),
      router: {
        process: async (inbound, _responder, replies) => {
          await options.hold?.(inbound);
          await replies.store(0, { text: `ตอบ ${inbound.messageId}`, files: [] }, true);
          const journal = await replies.journal(0);
          await journal.sending(0);
          log.push(`${inbound.conversationKey}/${inbound.messageId}`);
          await journal.sent(0);
        },
        setAside: async () => undefined,
      },
      adapters: [{ platform: 'telegram', responderFor: () => responder }],
      log: memoryLog().log,
      ...(options.maxConversations === undefined ? {} : { maxConversations: options.maxConversations }),
    });
    closers.push(() => worker.stop());
    return { worker, queue: sharedQueue, connection } satisfies Process;
  }

  it('two processes share the work: every message answered once, in order per conversation', async () => {
    const shared = newPrefix();
    const answered: string[] = [];
    const one = await process(shared, answered);
    const two = await process(shared, answered);
    await one.worker.resume();
    await two.worker.resume();
    const conversations = 40;
    const perConversation = 5;
    const accepting: Promise<unknown>[] = [];
    for (let round = 1; round <= perConversation; round++)
      for (let conversation = 0; conversation < conversations; conversation++) {
        const via = conversation % 2 === 0 ? one : two;
        accepting.push(via.worker.accept(message(`${conversation}-${round}`, `telegram:${conversation}`)));
      }
    await Promise.all(accepting);
    await until(() => answered.length >= conversations * perConversation, 'every message answered');
    await until(async () => (await one.queue.stats()).pending === 0, 'the queue drained');
    expect(new Set(answered).size).toBe(answered.length);
    expect(answered.length).toBe(conversations * perConversation);
    for (let conversation = 0; conversation < conversations; conversation++) {
      const order = answered.filter((entry) => entry.startsWith(`telegram:${conversation}/`));
      expect(order).toEqual([1, 2, 3, 4, 5].map((round) => `telegram:${conversation}/${conversation}-${round}`));
    }
  });

  it('a process that stops mid-message (its connection gone) is taken over after the lease, nothing lost or repeated', async () => {
    const shared = newPrefix();
    const answered: string[] = [];
    const stuck = deferred<void>();
    const entered = deferred<void>();
    // The first process takes the conversation and never finishes message 1 (as if killed mid-turn).
    const dying = await process(shared, answered, {
      leaseMs: 400,
      hold: async (inbound) => {
        if (inbound.messageId === 'x-1') {
          entered.resolve();
          await stuck.promise;
        }
      },
    });
    await dying.worker.resume();
    await dying.worker.accept(message('x-1', 'telegram:x'));
    await dying.worker.accept(message('x-2', 'telegram:x'));
    await entered.promise;
    // Cut off: no renewals, no writes — the lease runs out.
    dying.connection.destroy();
    const survivor = await process(shared, answered, { leaseMs: 400 });
    await survivor.worker.resume();
    await until(() => answered.length >= 2, 'the survivor answered both');
    expect(answered).toEqual(['telegram:x/x-1', 'telegram:x/x-2']);
    await until(async () => (await survivor.queue.stats()).pending === 0, 'nothing left');
    stuck.resolve();
  });

  it('a process whose lease ran out mid-message (a long pause, no other process) answers it once it can, not at the next message', async () => {
    const shared = newPrefix();
    const answered: string[] = [];
    const paused = deferred<void>();
    const entered = deferred<void>();
    const alone = await process(shared, answered, {
      hold: async (inbound) => {
        if (inbound.messageId !== 'p-1' || answered.length > 0) return;
        entered.resolve();
        await paused.promise;
      },
    });
    await alone.worker.resume();
    await alone.worker.accept(message('p-1', 'telegram:p'));
    await entered.promise;
    // As if the process had stalled past its lease: the lease expired and nobody took the conversation. Its writes
    // are refused now (the turn fails) — the message must still be answered, without a new message to wake it.
    const connection = await client();
    await connection.del(`${shared}lease:telegram:p`);
    paused.resolve();
    await until(() => answered.length >= 1, 'the message answered after the lease loss');
    await until(async () => (await alone.queue.stats()).pending === 0, 'nothing left');
    expect(answered).toEqual(['telegram:p/p-1']);
  });

  /** A process with room for one conversation that holds message `heldId` until `release` resolves. */
  async function processHolding(shared: string, log: string[], heldId: string) {
    const release = deferred<void>();
    const entered = deferred<void>();
    const holding = await process(shared, log, {
      maxConversations: 1,
      hold: async (inbound) => {
        if (inbound.messageId !== heldId) return;
        entered.resolve();
        await release.promise;
      },
    });
    return { holding, entered: entered.promise, release: () => release.resolve() };
  }

  it('a full process leaves new conversations in the shared line for a process with room', async () => {
    const shared = newPrefix();
    const answered: string[] = [];
    const { holding: busy, entered, release } = await processHolding(shared, answered, 'busy-1');
    await busy.worker.resume();
    await busy.worker.accept(message('busy-1', 'telegram:busy'));
    await entered;
    // The busy process has no room: this one must wait in the stream, not in the busy process.
    await busy.worker.accept(message('free-1', 'telegram:free'));
    const idle = await process(shared, answered, { maxConversations: 1 });
    await idle.worker.resume();
    await until(() => answered.includes('telegram:free/free-1'), 'the process with room answered');
    expect(answered).toEqual(['telegram:free/free-1']);
    release();
    await until(() => answered.length === 2, 'the busy one finished');
  });

  it('a full process sends a conversation with more messages to the back of the line, so waiting ones go first', async () => {
    const shared = newPrefix();
    const answered: string[] = [];
    const { holding: only, entered, release } = await processHolding(shared, answered, 'a-1');
    await only.worker.resume();
    await only.queue.accept(message('a-1', 'telegram:a'));
    await entered;
    // While a-1 runs: a first message in another conversation, then a second one in this one.
    await only.queue.accept(message('b-1', 'telegram:b'));
    await only.queue.accept(message('a-2', 'telegram:a'));
    release();
    await until(() => answered.length === 3, 'all answered');
    // b-1 came first: without the requeue the first conversation would keep its place for both of its messages.
    expect(answered).toEqual(['telegram:a/a-1', 'telegram:b/b-1', 'telegram:a/a-2']);
  });

  it('a process that starts with conversations waiting takes only what it has room for', async () => {
    const shared = newPrefix();
    const early = await queue(shared);
    await early.accept(message('p-1', 'telegram:p'));
    await early.accept(message('q-1', 'telegram:q'));
    // The first process to start holds every message it takes; it has room for one conversation.
    const started: string[] = [];
    const release = deferred<void>();
    const entered = deferred<void>();
    const first = await process(shared, [], {
      maxConversations: 1,
      hold: async (inbound) => {
        started.push(inbound.messageId);
        entered.resolve();
        await release.promise;
      },
    });
    await first.worker.resume();
    await entered.promise;
    // The other open conversation is left in the line: a second process answers it while the first is busy.
    const answeredBySecond: string[] = [];
    const second = await process(shared, answeredBySecond, { maxConversations: 1 });
    await second.worker.resume();
    await until(() => answeredBySecond.length === 1, 'the second process answered the other conversation');
    expect(started).toHaveLength(1);
    expect([...started, ...answeredBySecond.map((entry) => entry.split('/')[1])].sort()).toEqual(['p-1', 'q-1']);
    release.resolve();
    await until(async () => (await second.queue.stats()).pending === 0, 'nothing left');
  });

  it('a stored answer is delivered, not produced again, by the process that takes over', async () => {
    const shared = newPrefix();
    const first = await queue(shared, 400);
    await first.accept(message('y-1', 'telegram:y'));
    await first.claim('telegram:y');
    const entry = await first.next('telegram:y');
    await first.startAttempt(entry!.sequence);
    await first.storeReply(entry!.sequence, 0, { text: 'เก็บไว้แล้ว', files: [] }, true);
    // The first process dies here: the lease expires.
    await first.close();
    const second = await queue(shared, 400);
    await until(async () => (await second.claim('telegram:y')) !== undefined, 'the lease was free');
    const again = await second.next('telegram:y');
    expect(again?.answered).toBe(true);
    const replies = await queuedReplies(second, again!, await second.startAttempt(again!.sequence));
    expect(replies.earlier.map((stored) => stored.reply.text)).toEqual(['เก็บไว้แล้ว']);
  });

  it('a strike (a crash this process caught) counts as an interrupted attempt: the process that takes over sets it aside', async () => {
    const shared = newPrefix();
    const first = await queue(shared, 400);
    await first.accept(message('z-1', 'telegram:z'));
    await first.claim('telegram:z');
    const entry = await first.next('telegram:z');
    expect(await first.startAttempt(entry!.sequence)).toBe(1);
    await first.strike([entry!.sequence]);
    await first.close();

    const setAside: string[] = [];
    const second = await queue(shared, 400);
    const worker = new InboundWorker({
      queue: second,
      turns: new InProcessTurnQueue(2),
      ...inertWorkerStores(),
      router: {
        process: async () => {
          throw new Error('a set-aside message must not run');
        },
        setAside: async (inbound: InboundMessage) => void setAside.push(inbound.messageId),
      },
      adapters: [{ platform: 'telegram', responderFor: () => ({ send: async () => undefined }) }],
      log: memoryLog().log,
    });
    closers.push(() => worker.stop());
    await worker.resume();
    await until(async () => (await second.stats()).pending === 0, 'the message was set aside');
    expect(setAside).toEqual(['z-1']);
  });
});
