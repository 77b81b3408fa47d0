import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTelegramAdapter } from '../../../adapters/telegram/index.js';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import { createRedisLease, type RedisSingletonLease } from '../../../src/redis/redis-lease.js';
import type { DeliveryJournal, PlatformAdapter } from '../../../src/shared/channel.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import { privateChat, startFakeTelegram, textMessageUpdate, user, type FakeTelegram } from '../../fakes/telegram/index.js';
import { testInboundHandler } from '../../support/inbound-handler.js';
import { memoryLog, type LogRecord } from '../../support/memory-log.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

const redisInstalled = systemProgramPresent(redisServerProgram);

// Two real Telegram adapters (two bot processes) against one fake Bot API, sharing a Redis polling lease: only
// the holder polls, every update is taken once and answered once (here by the process on standby: responders work
// in every process), and when the holder stops the other takes the lease and the next update. No 409 on the way.

const somchai = user(501, 'Somchai');
const chat = privateChat(somchai);
const ttlMs = 1500;

let redis: RedisServer;
let fake: FakeTelegram;
const clients: RedisClient[] = [];
const leases: RedisSingletonLease[] = [];
const adapters: PlatformAdapter[] = [];

const journal = (): DeliveryJournal => {
  const sent = new Set<number>();
  return { isSent: (part) => sent.has(part), sending: async () => undefined, sent: async (part) => void sent.add(part) };
};

interface Process {
  name: string;
  adapter: PlatformAdapter;
  lease: RedisSingletonLease;
}

const taken: { by: string; text: string }[] = [];
const logs: LogRecord[][] = [];
const processes: Process[] = [];

/** Which process holds the lease now, read from Redis. */
async function holder(): Promise<Process | undefined> {
  const owner = await clients[0]?.get('saeng:lease:telegram-polling');
  return processes.find((each) => each.lease.owner === owner);
}

async function startProcess(name: string): Promise<Process> {
  const client = await connectRedisClient({ url: redis.url, log: silentLogger() });
  clients.push(client);
  const { log, records } = memoryLog('debug', [fake.token]);
  logs.push(records);
  const lease = createRedisLease({ client, name: 'telegram-polling', ttlMs, log });
  leases.push(lease);
  const adapter = createTelegramAdapter({
    token: fake.token,
    apiRoot: fake.url,
    logger: log,
    language: 'th',
    maxImageBytes: 20 * 1024 * 1024,
    commandMenu: { everyone: [{ command: 'help', description: 'คำสั่ง' }], administrators: [] },
    pollingLease: lease,
    pollTimeoutSeconds: 5,
  });
  adapters.push(adapter);
  const process: Process = { name, adapter, lease };
  processes.push(process);
  // The core: store (here: note who took it), and answer through any process's responder — the other one's.
  await adapter.start(
    testInboundHandler(async (message: InboundMessage) => {
      taken.push({ by: name, text: message.text });
      const answering = processes.find((each) => each !== process) ?? process;
      void answering.adapter.responderFor(message).send({ text: `ตอบ: ${message.text}`, files: [] }, journal());
      return 'stored';
    }),
  );
  return process;
}

const answers = (): string[] => fake.sentMessages(chat.id).map((message) => ('text' in message ? message.text : ''));

beforeAll(async () => {
  redis = await startRedisServer();
  fake = await startFakeTelegram({ chats: [chat] });
});

afterAll(async () => {
  for (const adapter of adapters) await adapter.stop();
  for (const lease of leases) await lease.close();
  await fake.close();
  for (const client of clients) client.destroy();
  await redis.close();
});

describe.skipIf(!redisInstalled)('Telegram long polling under a Redis lease, two processes', () => {
  it('polls in one process only, answers each update once, and hands polling over when that process stops', async () => {
    await startProcess('alpha');
    await startProcess('beta');
    const first = await vi.waitFor(
      async () => {
        const found = await holder();
        if (!found) throw new Error('no process holds the lease yet');
        return found;
      },
      { timeout: 5000, interval: 20 },
    );
    const standby = processes.find((each) => each !== first);
    if (!standby) throw new Error('two processes were started');
    await vi.waitFor(async () => expect(await first.adapter.statusLines?.('en', true)).toEqual([expect.stringContaining('this process polls')]));
    expect(await standby.adapter.statusLines?.('en', true)).toEqual(['Telegram: standby (another process polls); this process still sends answers']);
    expect((await standby.adapter.statusLines?.('th', true))?.[0]).toContain('สแตนด์บาย');
    // What /readyz shows for each.
    expect([first.adapter.runningState?.(), standby.adapter.runningState?.()]).toEqual(['running', 'standby']);

    fake.pushUpdate(textMessageUpdate({ chat, from: somchai, text: 'สวัสดี' }));
    await vi.waitFor(() => expect(answers()).toEqual(['ตอบ: สวัสดี']), { timeout: 5000, interval: 20 });
    expect(taken).toEqual([{ by: first.name, text: 'สวัสดี' }]);

    await first.adapter.stop();
    await vi.waitFor(async () => expect((await holder())?.name).toBe(standby.name), { timeout: 5000, interval: 20 });
    fake.pushUpdate(textMessageUpdate({ chat, from: somchai, text: 'ยังอยู่ไหม' }));
    await vi.waitFor(() => expect(answers()).toEqual(['ตอบ: สวัสดี', 'ตอบ: ยังอยู่ไหม']), { timeout: 5000, interval: 20 });
    expect(taken).toEqual([
      { by: first.name, text: 'สวัสดี' },
      { by: standby.name, text: 'ยังอยู่ไหม' },
    ]);
    expect(await standby.adapter.statusLines?.('en', true)).toEqual([expect.stringContaining('this process polls')]);
    expect(standby.adapter.runningState?.()).toBe('running');

    // No poller was answered 409. (The fake may log one for the stopping poller's own aborted long poll, ended by
    // its confirming getUpdates before the fake saw the abort: nobody is listening for that answer any more.)
    expect(logs.flat().filter((record) => /409|conflict/i.test(`${record.msg} ${String(record.error)}`))).toEqual([]);
    // Polling started twice, once in each process.
    expect(fake.callsOf('deleteWebhook')).toHaveLength(2);
  });

  it('stops polling when the lease is lost, and polls again once it takes the lease back', async () => {
    const [, beta] = processes;
    if (!beta || (await holder()) !== beta) throw new Error('the first test leaves beta polling');
    // Another owner in the key (as after a pause longer than the ttl): beta's next renewal finds it.
    await clients[0]?.set('saeng:lease:telegram-polling', 'someone-else', { expiration: { type: 'PX', value: ttlMs } });
    await vi.waitFor(async () => expect(await beta.adapter.statusLines?.('en', true)).toEqual([expect.stringContaining('standby')]), {
      timeout: 5000,
      interval: 20,
    });
    // Once that key expired, beta takes the lease again and answers what came meanwhile.
    fake.pushUpdate(textMessageUpdate({ chat, from: somchai, text: 'กลับมาแล้ว' }));
    await vi.waitFor(async () => expect((await holder())?.name).toBe('beta'), { timeout: 5000, interval: 20 });
    await vi.waitFor(() => expect(answers()).toContain('ตอบ: กลับมาแล้ว'), { timeout: 5000, interval: 20 });
    expect(taken.filter((each) => each.text === 'กลับมาแล้ว')).toEqual([{ by: 'beta', text: 'กลับมาแล้ว' }]);
    expect(logs.flat().map((record) => record.msg)).toContain('telegram polling: the polling lease was lost, on standby until it is free again');
  });
});
