import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { InboundQueue } from '../../../src/queue/inbound-queue.js';
import { LeaseLostError, RedisInboundQueue } from '../../../src/queue/redis-inbound-queue.js';
import { SqliteInboundQueue } from '../../../src/queue/sqlite-inbound-queue.js';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import { memoryLog, type LogRecord } from '../../support/memory-log.js';
import { queuedMessage as message } from '../../support/queued-message.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

// The live (streamed) message's id, on both backends: what one attempt remembered is read back with the message by
// the next one (after a restart on SQLite, in another process on Redis), so a resumed turn continues in that message.

const redisInstalled = systemProgramPresent(redisServerProgram);
const conversation = 'telegram:1';

let redis: RedisServer | undefined;
const cleanups: (() => unknown)[] = [];
let prefixCount = 0;

beforeAll(async () => {
  if (redisInstalled) redis = await startRedisServer();
});
afterAll(async () => {
  await redis?.close();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await Promise.resolve(cleanup()).catch(() => undefined);
});

/** One backend's queues: `first` is the process that answers first; `next()` the one that resumes after it stopped. */
interface Opened {
  first: InboundQueue;
  records: LogRecord[];
  next(): Promise<InboundQueue>;
}

async function redisClient(): Promise<RedisClient> {
  const client = await connectRedisClient({ url: redis!.url, log: memoryLog().log });
  cleanups.push(() => client.isOpen && client.destroy());
  return client;
}

async function redisQueue(prefix: string, log = memoryLog().log): Promise<RedisInboundQueue> {
  const queue = new RedisInboundQueue({ client: await redisClient(), dedupeTtlMs: 60_000, leaseMs: 60_000, log, prefix });
  cleanups.push(() => queue.close());
  // The conversation is taken before its messages are looked at, as the worker does.
  if (!(await queue.claim(conversation))) throw new Error('conversation not taken');
  return queue;
}

const backends: { name: string; skip: boolean; open(): Promise<Opened> }[] = [
  {
    name: 'SQLite',
    skip: false,
    async open() {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-live-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const { log, records } = memoryLog();
      const first = new SqliteInboundQueue({ dataDir, dedupeTtlMs: 60_000, log });
      return {
        first,
        records,
        next: async () => {
          first.close();
          const reopened = new SqliteInboundQueue({ dataDir, dedupeTtlMs: 60_000, log });
          cleanups.push(() => reopened.close());
          return reopened;
        },
      };
    },
  },
  {
    name: 'Redis',
    skip: !redisInstalled,
    async open() {
      const prefix = `live${++prefixCount}:`;
      const { log, records } = memoryLog();
      const first = await redisQueue(prefix, log);
      return {
        first,
        records,
        next: async () => {
          // Gives the conversation back, as a process that stops does; the next process takes it.
          await first.close();
          return redisQueue(prefix, log);
        },
      };
    },
  },
];

for (const { name, skip, open } of backends) {
  describe(`${name} queue: the live message`, () => {
    it.skipIf(skip)('is read back with the message by the next attempt, overwritten by a later handle, kept once answered', async () => {
      const { first, next } = await open();
      await first.accept(message('1'));
      await first.accept(message('2'));
      const entry = await first.next(conversation);
      expect(entry).toBeDefined();
      expect(entry).not.toHaveProperty('liveMessage');
      const { sequence } = entry!;
      expect(await first.startAttempt(sequence)).toBe(1);
      await first.rememberLiveMessage(sequence, '-1001234567890:41');
      await first.rememberLiveMessage(sequence, '-1001234567890:42');
      await first.storeReply(sequence, 0, { text: 'คำตอบ', files: [] }, true);

      const second = await next();
      expect(await second.next(conversation)).toMatchObject({ sequence, answered: true, liveMessage: '-1001234567890:42' });
      await second.startAttempt(sequence);
      await second.finish(sequence, 'done');
      // The next message of the conversation has a live message of its own, none yet.
      const following = await second.next(conversation);
      expect(following?.message.messageId).toBe('2');
      expect(following).not.toHaveProperty('liveMessage');
    });

    it.skipIf(skip)('refuses an empty handle or one over 128 characters: logged (its length, not the id), the stored one kept', async () => {
      const { first, records, next } = await open();
      await first.accept(message('1'));
      const { sequence } = (await first.next(conversation))!;
      await first.startAttempt(sequence);
      const longest = '9'.repeat(128);
      await first.rememberLiveMessage(sequence, longest);
      await first.rememberLiveMessage(sequence, 'x'.repeat(129));
      await first.rememberLiveMessage(sequence, '');

      expect((await (await next()).next(conversation))?.liveMessage).toBe(longest);
      const refusals = records.filter((record) => record.msg.includes('live message id refused'));
      expect(refusals.map((record) => [record.level, record.sequence, record.chars])).toEqual([
        [40, sequence, 129],
        [40, sequence, 0],
      ]);
      expect(JSON.stringify(refusals)).not.toContain('xxx');
    });
  });
}

describe.skipIf(!redisInstalled)('Redis queue: the live message without the lease', () => {
  it('is refused like a part mark once another process holds the conversation; nothing is written', async () => {
    const prefix = `live${++prefixCount}:`;
    const slow = await redisQueue(prefix);
    await slow.accept(message('1'));
    const { sequence } = (await slow.next(conversation))!;
    await slow.startAttempt(sequence);
    await slow.rememberLiveMessage(sequence, '41');
    // The lease as if it had expired and another process had taken it.
    await (await redisClient()).set(`${prefix}lease:${conversation}`, 'another-process');
    await expect(slow.markPart(sequence, 0, 0, 'sending')).rejects.toBeInstanceOf(LeaseLostError);
    await expect(slow.rememberLiveMessage(sequence, '42')).rejects.toBeInstanceOf(LeaseLostError);
    expect((await slow.next(conversation))?.liveMessage).toBe('41');
  });
});
