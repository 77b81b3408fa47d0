import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LeaseLostError, RedisInboundQueue } from '../../../src/queue/redis-inbound-queue.js';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import { createRedisLease } from '../../../src/redis/redis-lease.js';
import { memoryLog, type LogRecord } from '../../support/memory-log.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { queuedMessage as message } from '../../support/queued-message.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

const redisInstalled = systemProgramPresent(redisServerProgram);

// With one process, a lease that is not ours is not "taken over by another process": after a Redis restart without
// persistence the lease and the message itself are gone, and the log says so. With the append-only file (as the bot
// requires at start) the same restart keeps the accepted message.

let volatile: RedisServer;
let durable: RedisServer;
const clients: RedisClient[] = [];
const closers: (() => Promise<unknown>)[] = [];
let prefixCount = 0;

beforeAll(async () => {
  [volatile, durable] = await Promise.all([startRedisServer({ persistence: 'none' }), startRedisServer({ persistence: 'aof' })]);
});
afterAll(async () => {
  await Promise.all([volatile.close(), durable.close()]);
});
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => undefined);
  for (const client of clients.splice(0)) if (client.isOpen) client.destroy();
});

async function client(server: RedisServer): Promise<RedisClient> {
  const connected = await connectRedisClient({ url: server.url, log: memoryLog().log });
  clients.push(connected);
  return connected;
}

async function queue(server: RedisServer, leaseMs = 60_000) {
  const log = memoryLog('info');
  const prefix = `loss${++prefixCount}:`;
  const connection = await client(server);
  const created = new RedisInboundQueue({ client: connection, dedupeTtlMs: 60_000, leaseMs, log: log.log, prefix, language: 'en' });
  closers.push(() => created.close());
  return { queue: created, prefix, connection, records: log.records };
}

/** Waits (bounded) until a fresh command gets through: node-redis reconnects on its own after a restart. */
async function answering(connection: RedisClient): Promise<void> {
  for (let look = 0; look < 500; look++) {
    if (connection.isReady && (await connection.ping().catch(() => undefined)) === 'PONG') return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('Redis never answered again');
}

async function restart(server: RedisServer, connection: RedisClient): Promise<void> {
  await server.stop();
  await server.start();
  await answering(connection);
}

async function held(queue: RedisInboundQueue, conversation: string): Promise<number> {
  await queue.accept(message('1', conversation));
  await queue.claim(conversation);
  const entry = await queue.next(conversation);
  if (!entry) throw new Error('no entry');
  return entry.sequence;
}

async function refusal(write: Promise<unknown>): Promise<LeaseLostError> {
  const error = await write.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof LeaseLostError)) throw new Error(`expected a LeaseLostError, got ${String(error)}`);
  return error;
}

describe.skipIf(!redisInstalled)('a lease that is not ours: the log says why', () => {
  it('Redis restarted without persistence: the message is gone, said so (not "taken over by another process")', async () => {
    const { queue: single, connection } = await queue(volatile);
    const sequence = await held(single, 'telegram:lost');
    await restart(volatile, connection);
    const error = await refusal(single.storeReply(sequence, 0, { text: 'x', files: [] }, true));
    expect(error.loss).toBe('message-gone');
    expect(error.message).toBe(
      `the message ${sequence} of the conversation telegram:lost is gone from Redis: Redis restarted without persistence (appendonly no) or was emptied, and the message is lost`,
    );
    expect(error.message).not.toContain('another process');
  });

  it('the renewal after such a restart warns that the lease is gone, held by no process', async () => {
    const { queue: single, connection, records: seen } = await queue(volatile, 600);
    await held(single, 'telegram:renew');
    await restart(volatile, connection);
    // (A renewal tried while Redis was down only warns that it failed and will retry.)
    const lost = (): LogRecord | undefined => seen.find((record) => record.loss !== undefined);
    for (let look = 0; look < 500 && !lost(); look++) await new Promise((resolve) => setTimeout(resolve, 10));
    const warning = lost();
    expect(warning).toMatchObject({ level: 40, loss: 'expired', conversation: 'telegram:renew' });
    expect(warning?.msg).toContain('is gone from Redis and no process holds it');
    expect(warning?.msg).toContain('Redis restarted without persistence (appendonly no)');
  });

  it('an expired lease (the message still there) and one another process holds are told apart', async () => {
    const { queue: single, prefix, connection } = await queue(durable);
    const sequence = await held(single, 'telegram:expired');
    await connection.del(`${prefix}lease:telegram:expired`);
    expect((await refusal(single.markPart(sequence, 0, 0, 'sent'))).loss).toBe('expired');

    const second = await queue(durable);
    const other = await held(second.queue, 'telegram:taken');
    await second.connection.set(`${second.prefix}lease:telegram:taken`, 'another-owner');
    const taken = await refusal(second.queue.storeReply(other, 0, { text: 'x', files: [] }, true));
    expect(taken.loss).toBe('taken');
    expect(taken.message).toBe('the conversation telegram:taken was taken over by another process');
  });

  it('with appendonly yes the accepted message survives a Redis restart', async () => {
    const { queue: single, connection } = await queue(durable);
    await single.accept(message('kept', 'telegram:kept'));
    await restart(durable, connection);
    expect((await single.next('telegram:kept'))?.message.messageId).toBe('kept');
  });

  it('the single-process lease (Telegram poller) says the key is gone, not that another process holds it', async () => {
    const log = memoryLog('info');
    const connection = await client(volatile);
    const lease = createRedisLease({ client: connection, name: `poller-${++prefixCount}`, ttlMs: 600, log: log.log });
    closers.push(() => lease.close());
    const taken = await lease.acquire(new AbortController().signal);
    await connection.del(lease.key);
    await taken?.lost;
    const warning = log.records.find((record) => record.msg.startsWith('lease lost'));
    expect(warning?.msg).toBe('lease lost: the key is gone from Redis, held by no process (expired, or Redis restarted without persistence)');
  });
});
