import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLine, type FakeLine } from '../../fakes/line/index.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { privateChat, startFakeTelegram, user, type FakeTelegram } from '../../fakes/telegram/index.js';
import { killAllBots } from '../../support/bot-process.js';
import { deliverTelegramUpdate, startFleetBot, type FleetBot, type FleetServers } from '../../support/bot-fleet.js';
import { startPostgresServer, type PostgresServer } from '../../support/postgres-server.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { postgresProgram, redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

const redisInstalled = systemProgramPresent(redisServerProgram);
const postgresInstalled = systemProgramPresent(postgresProgram);

// The admin page behind a load balancer: two real bot processes (src/main.ts) sharing Redis and PostgreSQL. The
// `/web` link one process sent is spent at the other, the session cookie works at both, a link opened at both at
// once makes one session, and a knowledge base created on one process's page is on the other's.

const somchai = user(501, 'สมชาย', 'somchai');
const direct = privateChat(somchai);
const linkPattern = /\/admin\/login\?t=([\w-]{43})/;
let nextMessageId = 1;

let redis: RedisServer;
let postgres: PostgresServer;
let model: FakeModelServer;
let line: FakeLine;
let telegram: FakeTelegram;
let workDir: string;
let servers: FleetServers;

beforeAll(async () => {
  if (!redisInstalled || !postgresInstalled) return;
  [redis, postgres, model, line, telegram] = await Promise.all([
    startRedisServer({ persistence: 'aof' }),
    startPostgresServer(),
    startFakeModelServer({ modelId: 'test-model' }),
    startFakeLine({ quota: 'unlimited' }),
    startFakeTelegram({ chats: [direct] }),
  ]);
  workDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-admin-fleet-'));
  servers = { model, line, telegram, redisUrl: redis.url, databaseUrl: await postgres.createDatabase() };
}, 60_000);

afterAll(async () => {
  if (!redisInstalled || !postgresInstalled) return;
  await killAllBots();
  await Promise.all([line.close(), telegram.close(), model.close(), redis.close()]);
  postgres.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

/** A message from Somchai's private chat, taken first by `bots[first]`; the bot's answer. */
async function say(bots: FleetBot[], first: number, text: string): Promise<string> {
  const before = telegram.sentMessages(direct.id).length;
  const command = text.startsWith('/') ? [{ type: 'bot_command' as const, offset: 0, length: text.split(' ')[0]?.length ?? 0 }] : [];
  await deliverTelegramUpdate(telegram, bots, first, {
    message: { message_id: nextMessageId++, date: Math.floor(Date.now() / 1000), chat: direct, from: somchai, text, entities: command },
  });
  await telegram.waitForCall('sendMessage', () => telegram.sentMessages(direct.id).length > before);
  const sent = telegram.sentMessages(direct.id).at(-1);
  return sent && 'text' in sent ? sent.text : '';
}

/** `/web`, taken first by `bots[first]`; the token of the link it sent. */
async function askForLink(bots: FleetBot[], first: number): Promise<string> {
  const token = linkPattern.exec(await say(bots, first, '/web'))?.[1];
  if (!token) throw new Error('no link in the answer');
  return token;
}

/** The CSRF token a signed-in page carries (the body's data-csrf). */
async function csrfTokenOf(origin: string, cookie: string): Promise<string> {
  const page = await (await fetch(`${origin}/admin`, { headers: { cookie } })).text();
  const token = /data-csrf="([\w-]{43})"/.exec(page)?.[1];
  if (!token) throw new Error('no CSRF token on the page');
  return token;
}

function logIn(origin: string, token: string): Promise<Response> {
  return fetch(`${origin}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  });
}

describe.skipIf(!redisInstalled || !postgresInstalled)('the admin page on two processes sharing Redis and PostgreSQL', () => {
  it('spends a link sent by one process at the other, once; the session and what it changes are the same on both', async () => {
    const settings = { ADMIN_IDS: 'telegram:501' };
    const bots = await Promise.all([startFleetBot(servers, workDir, 'a', settings), startFleetBot(servers, workDir, 'b', settings)]);
    const [a, b] = bots;
    if (!a || !b) throw new Error('two bots');

    const token = await askForLink(bots, 0);
    const opened = await logIn(b.origin, token);
    expect(opened.status).toBe(303);
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    for (const bot of bots) {
      const page = await fetch(`${bot.origin}/admin`, { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('ผู้ดูแลระบบ (ทุกกลุ่ม)');
    }
    expect((await logIn(a.origin, token)).status).toBe(403);

    // Opened at both processes at the same moment: one session.
    const raced = await askForLink(bots, 1);
    const answers = await Promise.all([logIn(a.origin, raced), logIn(b.origin, raced)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([303, 403]);

    // A knowledge base created on one process's page (PostgreSQL) is on the other's, and its audit entry too (Redis).
    // Somchai's chat has talked to the bot: its space is offered for a new base.
    await say(bots, 0, 'สวัสดี');
    const csrf = await csrfTokenOf(a.origin, cookie);
    const created = await fetch(`${a.origin}/admin/kb`, {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: a.origin, 'sec-fetch-site': 'same-origin', cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf, name: 'คู่มือกลาง', description: '', space: `telegram:${somchai.id}` }).toString(),
    });
    expect(created.status).toBe(303);
    expect(await (await fetch(`${b.origin}/admin/kb`, { headers: { cookie } })).text()).toContain('คู่มือกลาง');
    expect(await (await fetch(`${b.origin}/admin/sessions`, { headers: { cookie } })).text()).toContain('kb-create');
  });
});
