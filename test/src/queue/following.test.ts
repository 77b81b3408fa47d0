import { describe, expect, it } from 'vitest';
import type { InboundQueue } from '../../../src/queue/inbound-queue.js';
import { RedisInboundQueue } from '../../../src/queue/redis-inbound-queue.js';
import { connectRedisClient } from '../../../src/redis/redis-client.js';
import { memoryLog } from '../../support/memory-log.js';
import { queuedMessage as message } from '../../support/queued-message.js';
import { queueTestSetup } from '../../support/queue-test-setup.js';

// InboundQueue.following on both backends: the messages waiting behind one, in order, without taking them — and,
// on Redis, writable under the conversation's lease like those `next` hands out (a stale backlog's one reply covers
// them: src/pipeline/missed-messages.ts).

const conversation = 'telegram:1';
const setup = queueTestSetup('following', { redis: true });
let prefixCount = 0;

const backends: { name: string; skip: boolean; open(): Promise<InboundQueue> }[] = [
  {
    name: 'SQLite',
    skip: false,
    async open() {
      return setup.sqliteQueue(setup.tempDir());
    },
  },
  {
    name: 'Redis',
    skip: !setup.redisInstalled,
    async open() {
      const client = await connectRedisClient({ url: setup.redisUrl(), log: memoryLog().log });
      setup.cleanups.push(() => client.isOpen && client.destroy());
      const queue = new RedisInboundQueue({ client, dedupeTtlMs: 60_000, leaseMs: 60_000, log: memoryLog().log, prefix: `following${++prefixCount}:` });
      setup.cleanups.push(() => queue.close());
      return queue;
    },
  },
];

for (const backend of backends) {
  describe.skipIf(backend.skip)(`${backend.name}: following`, () => {
    it('gives the unfinished messages after one, in order and bounded, leaving them queued', async () => {
      const queue = await backend.open();
      for (const id of ['1', '2', '3', '4']) await queue.accept(message(id));
      await queue.accept(message('9', 'telegram:other'));
      await queue.claim?.(conversation);
      const head = await queue.next(conversation);
      const behind = await queue.following(conversation, head!.sequence, 10);
      expect(behind.map((entry) => [entry.message.messageId, entry.answered])).toEqual([
        ['2', false],
        ['3', false],
        ['4', false],
      ]);
      expect(behind.every((entry) => entry.sequence > head!.sequence)).toBe(true);
      expect((await queue.following(conversation, head!.sequence, 2)).map((entry) => entry.message.messageId)).toEqual(['2', '3']);
      // Not taken: the head is still next, and each later one comes in its turn.
      expect((await queue.next(conversation))?.message.messageId).toBe('1');
      expect((await queue.stats()).pending).toBe(5);
    });

    it('lets the messages it gave be answered (covered) under the lease; a finished one is no longer given', async () => {
      const queue = await backend.open();
      for (const id of ['1', '2', '3']) await queue.accept(message(id));
      await queue.claim?.(conversation);
      const head = await queue.next(conversation);
      const [second] = await queue.following(conversation, head!.sequence, 10);
      await queue.storeReply(second!.sequence, 0, { text: '', files: [] }, true);
      expect((await queue.following(conversation, head!.sequence, 10)).map((entry) => [entry.message.messageId, entry.answered])).toEqual([
        ['2', true],
        ['3', false],
      ]);
      await queue.startAttempt(head!.sequence);
      await queue.finish(head!.sequence, 'done');
      const next = await queue.next(conversation);
      expect(next).toMatchObject({ sequence: second!.sequence, answered: true });
      expect((await queue.following(conversation, head!.sequence, 10)).map((entry) => entry.message.messageId)).toEqual(['2', '3']);
      await queue.finish(second!.sequence, 'done');
      expect((await queue.following(conversation, head!.sequence, 10)).map((entry) => entry.message.messageId)).toEqual(['3']);
    });
  });
}
