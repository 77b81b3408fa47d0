import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLine, type FakeLine } from '../../fakes/line/index.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { startFakeTelegram, type FakeTelegram } from '../../fakes/telegram/index.js';
import { killAllBots } from '../../support/bot-process.js';
import { killFleetBot, startFleetBot, type FleetBot, type FleetServers } from '../../support/bot-fleet.js';
import { answerFor, answerTo, converse, lineConversation, mixedConversations, telegramConversation, whenSent } from '../../support/fleet-conversations.js';
import { startPostgresServer, type PostgresServer } from '../../support/postgres-server.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { postgresProgram, redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

const redisInstalled = systemProgramPresent(redisServerProgram);
const postgresInstalled = systemProgramPresent(postgresProgram);

// Two real bot processes (src/main.ts) sharing a real Redis and PostgreSQL take LINE and Telegram webhooks spread
// over both, as a load balancer would: 200 conversations × 5 messages, each conversation's messages landing on both
// processes in turn. One process is killed with SIGKILL mid-run; what it had taken is answered by the other after
// the lease (REDIS_LEASE_SECONDS=2). Every message is answered, in order, once — but for the one send per
// conversation that may have been in flight at the kill — and the per-user quota holds across both processes.

const conversationsPerPlatform = 100;
const messagesPerConversation = 5;
const quotaPerMinute = 5;
const quotaMessages = 8;
const killAfterAnswers = 400;

let redis: RedisServer;
let postgres: PostgresServer;
let model: FakeModelServer;
let line: FakeLine;
let telegram: FakeTelegram;
let workDir: string;
let servers: FleetServers;

beforeAll(async () => {
  [redis, postgres, model, line, telegram] = await Promise.all([
    startRedisServer({ persistence: 'aof' }),
    startPostgresServer(),
    startFakeModelServer({ flavour: 'generic', modelId: 'test-model', answer: { text: answerFor } }),
    startFakeLine({ quota: 'unlimited' }),
    startFakeTelegram(),
  ]);
  workDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-scale-out-'));
  servers = { model, line, telegram, redisUrl: redis.url, databaseUrl: await postgres.createDatabase() };
}, 60_000);

afterAll(async () => {
  await killAllBots();
  await Promise.all([line.close(), telegram.close(), model.close(), redis.close()]);
  postgres.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** On a failure (a time-out included), the end of each bot's log: what the next reader needs to see why. */
function logTails(bots: readonly FleetBot[]): string {
  const tail = (text: string) => text.split('\n').slice(-40).join('\n');
  return bots.map((bot) => `--- bot ${bot.name}\n${tail(bot.process.stdout())}\n${tail(bot.process.stderr())}`).join('\n');
}

/** Adjacent repeats folded: what the conversation saw once each send in flight at the kill is counted once. */
function withoutRepeats(texts: readonly string[]): string[] {
  return texts.filter((text, index) => text !== texts[index - 1]);
}

describe.skipIf(!redisInstalled || !postgresInstalled)('two bot processes sharing Redis and PostgreSQL, one killed with SIGKILL mid-run', () => {
  it('answers every webhook message once, in order per conversation, and enforces the quota across both', async ({ onTestFailed }) => {
    const settings = { USER_MESSAGES_PER_MINUTE: String(quotaPerMinute), REDIS_LEASE_SECONDS: '2' };
    const bots = await Promise.all([startFleetBot(servers, workDir, 'a', settings), startFleetBot(servers, workDir, 'b', settings)]);
    onTestFailed(() => console.error(logTails(bots)));
    const [victim, survivor] = bots;
    if (!victim || !survivor) throw new Error('two bots');

    // The quota first, on an idle pair (its window is a minute): 8 messages from one user, alternating processes.
    const quotaUsers = [lineConversation(servers, 10_000, bots), telegramConversation(servers, 10_000, bots)];
    await Promise.all(
      quotaUsers.map(async (conversation) => {
        for (let index = 0; index < quotaMessages; index += 1) await conversation.ask(index, index);
        await whenSent(servers, conversation, quotaPerMinute + 1);
      }),
    );

    const conversations = mixedConversations(servers, 2 * conversationsPerPlatform, bots);
    let answered = 0;
    let killed: Promise<void> | undefined;
    const sentAtKill = new Map<string, number>();
    // The traffic goes on through the kill: two questions stay open per conversation.
    await converse(servers, conversations, messagesPerConversation, () => {
      answered += 1;
      if (answered !== killAfterAnswers) return;
      // Snapshot before the signal: a second copy of any answer must come after it.
      for (const conversation of conversations) sentAtKill.set(conversation.name, conversation.sent().length);
      killed = killFleetBot(victim);
    });
    await killed;
    expect(killed, 'the kill came mid-run').toBeDefined();

    // Nothing more is on its way once the survivor shuts down cleanly (it finishes what it holds first).
    expect(await survivor.process.kill('SIGTERM')).toBe(0);

    let repeated = 0;
    for (const conversation of conversations) {
      const sent = conversation.sent();
      const expected = Array.from({ length: messagesPerConversation }, (_, index) => answerTo(conversation.name, index));
      expect(withoutRepeats(sent), conversation.name).toEqual(expected);
      const repeats = sent.length - expected.length;
      // At most the one send in flight at the kill, and only sent again after it.
      expect(repeats, `${conversation.name}: ${sent.join(' | ')}`).toBeLessThanOrEqual(1);
      if (repeats === 1) {
        const second = sent.findIndex((text, index) => text === sent[index - 1]);
        expect(second, conversation.name).toBeGreaterThanOrEqual(sentAtKill.get(conversation.name) ?? 0);
      }
      repeated += repeats;
    }
    const resumed = survivor.process
      .stdout()
      .split('\n')
      .filter((line) => line.includes('resuming a message after a restart')).length;
    console.log(JSON.stringify({ conversations: conversations.length, messages: answered, resumedAfterTheKill: resumed, repeatedAfterKill: repeated }));

    // Five answers, then one notice for the sixth; the seventh and eighth get nothing (one notice a minute).
    for (const conversation of quotaUsers) {
      const sent = conversation.sent();
      expect(sent.slice(0, quotaPerMinute)).toEqual(Array.from({ length: quotaPerMinute }, (_, index) => answerTo(conversation.name, index)));
      expect(sent).toHaveLength(quotaPerMinute + 1);
      expect(sent[quotaPerMinute]).toContain(`สูงสุด ${quotaPerMinute} ข้อความต่อนาที`);
    }
    expect(model.unexpected).toEqual([]);
  }, 300_000);

  it('while Redis is down a webhook is not acknowledged (the platform delivers it again), and it is answered once Redis is back', async () => {
    const bot = await startFleetBot(servers, workDir, 'c', { REDIS_LEASE_SECONDS: '2' });
    const lineUser = lineConversation(servers, 20_000, [bot]);
    const telegramUser = telegramConversation(servers, 20_000, [bot]);
    await redis.stop();
    // One try each, straight at the bot: what LINE and Telegram would get back.
    const refused: string[] = [];
    for (const conversation of [lineUser, telegramUser])
      await conversation.ask(0, 0).then(
        () => refused.push(`${conversation.name}: acknowledged`),
        (error: unknown) => refused.push(String(error)),
      );
    expect(refused).toHaveLength(2);
    expect(refused.join('\n')).not.toContain('acknowledged');
    expect(bot.process.stdout() + bot.process.stderr()).toContain('Redis connection lost: retrying');

    await redis.start();
    // Ready again once its Redis connections are back (/readyz asks Redis each time), as a balancer's health check
    // sees; its wake stream's group is made again (this Redis came back empty).
    const readiness = () =>
      fetch(`${bot.origin}/readyz`, { signal: AbortSignal.timeout(5000) }).then(
        (answer) => answer.status,
        () => 0,
      );
    await expect.poll(readiness, { timeout: 30_000, interval: 100 }).toBe(200);
    // The platforms deliver again: now it is stored and answered, once.
    await Promise.all([lineUser, telegramUser].map((conversation) => conversation.ask(0, 0)));
    await Promise.all([lineUser, telegramUser].map((conversation) => whenSent(servers, conversation, 1)));
    expect(await bot.process.kill('SIGTERM')).toBe(0);
    expect(lineUser.sent()).toEqual([answerTo(lineUser.name, 0)]);
    expect(telegramUser.sent()).toEqual([answerTo(telegramUser.name, 0)]);
  }, 120_000);
});
