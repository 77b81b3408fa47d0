import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lineUserId, startFakeLine, userSource, type FakeLine } from '../../fakes/line/index.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { startSwitchableRelay, type SwitchableRelay } from '../../fakes/switchable-relay.js';
import { privateChat, startFakeTelegram, textMessageUpdate, user, type FakeTelegram } from '../../fakes/telegram/index.js';
import { botEnvironment } from '../../support/bot-process.js';
import { killAllSaeng, startSaeng, type SaengProcess } from './saeng-process.js';

// `npm start` (the real process, real telegraf and @line/bot-sdk against the fakes) when a platform is not there
// yet: the bot keeps running, /readyz names the platform down with its reason, the other platform answers meanwhile,
// and once the platform is up it starts and answers what was waiting. A refused token stops the start with the line
// naming the variable. No timing: each step waits for a log line, a call reaching a fake, or an exit.

const somchai = user(7001, 'Somchai');
const chat = privateChat(somchai);
const malee = lineUserId('malee');

let telegram: FakeTelegram | undefined;
let line: FakeLine | undefined;
let relay: SwitchableRelay | undefined;
let model: FakeModelServer;
let workDir: string;

beforeEach(async () => {
  model = await startFakeModelServer({ flavour: 'generic', modelId: 'test-model' });
  workDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-platform-retry-'));
});
afterEach(async () => {
  await killAllSaeng();
  await relay?.close();
  await telegram?.close();
  await line?.close();
  await model.close();
  relay = telegram = line = undefined;
  rmSync(workDir, { recursive: true, force: true });
});

function environment(extra: Record<string, string>): Record<string, string> {
  // Retries at most 2 s apart: the test waits for the attempt after the platform came up, not for a minute.
  return { ...botEnvironment(model.url, path.join(workDir, 'data'), 'info'), PLATFORM_RETRY_MAX_SECONDS: '2', ...extra };
}

async function httpBase(saeng: SaengProcess): Promise<string> {
  const listening = await saeng.line('stdout', '"http server listening"');
  const port = (JSON.parse(listening) as { port?: number }).port;
  if (!port) throw new Error(`no port in ${listening}`);
  return `http://127.0.0.1:${port}`;
}

interface Readiness {
  status: string;
  platforms: Record<string, string>;
  platformsDown: Record<string, { reason: string; nextAttemptAt?: string }>;
}

async function readyz(base: string): Promise<{ status: number; body: Readiness }> {
  const answer = await fetch(`${base}/readyz`);
  return { status: answer.status, body: (await answer.json()) as Readiness };
}

const lineTexts = (to: string) => (line?.sentMessages(to) ?? []).map((message) => message.text);

describe('a platform that cannot start yet', { timeout: 90_000 }, () => {
  it('Telegram unreachable at start: retried while LINE answers, /readyz names it; once reachable it starts and answers', async () => {
    telegram = await startFakeTelegram({ chats: [chat] });
    line = await startFakeLine();
    const target = new URL(telegram.url);
    relay = await startSwitchableRelay({ host: target.hostname, port: Number(target.port) });
    model.script({ text: 'คำตอบทาง LINE' }, { text: 'คำตอบทาง Telegram' });

    const saeng = startSaeng(
      environment({
        TELEGRAM_BOT_TOKEN: telegram.token,
        TELEGRAM_API_ROOT: relay.origin,
        LINE_CHANNEL_SECRET: line.channelSecret,
        LINE_CHANNEL_ACCESS_TOKEN: line.channelAccessToken,
        LINE_API_BASE_URL: line.url,
        LINE_DATA_API_BASE_URL: line.url,
      }),
      workDir,
    );
    const base = await httpBase(saeng);
    // One line per attempt, in Thai (BOT_LANGUAGE's default), with the reason and the wait.
    const retried = await saeng.line('stderr', 'telegram เริ่มไม่สำเร็จ (ครั้งที่ 1');
    expect(retried).toContain('จะลองใหม่ในอีก');
    expect(retried).not.toContain(telegram.token);
    await line.waitForCall('GET /v2/bot/info');
    await saeng.line('stdout', 'line bot started');

    const down = await readyz(base);
    expect(down.status).toBe(503);
    expect(down.body.platforms).toMatchObject({ telegram: 'retrying', line: 'running' });
    expect(down.body.platformsDown.telegram?.reason).toBe('connection reset');
    expect(Date.parse(down.body.platformsDown.telegram?.nextAttemptAt ?? '')).not.toBeNaN();
    expect(JSON.stringify(down.body)).not.toContain(telegram.token);

    // LINE answers meanwhile.
    const webhookUrl = `${base}/webhooks/line`;
    const posted = await line.postWebhook(webhookUrl, line.webhookBody(line.textEvent({ source: userSource(malee), text: 'สวัสดี' })));
    expect(posted.status).toBe(200);
    await line.waitForCall('POST /v2/bot/message/reply');
    expect(lineTexts(malee)).toEqual(['คำตอบทาง LINE']);

    // Telegram comes back: the next attempt starts it, and the message waiting there is answered.
    telegram.pushUpdate(textMessageUpdate({ chat, from: somchai, text: 'ยังอยู่ไหม' }));
    relay.up();
    await saeng.line('stdout', 'telegram bot started');
    await telegram.waitForCall('sendMessage', () => telegram?.sentMessages(chat.id).length === 1);
    expect(telegram.sentMessages(chat.id).map((message) => ('text' in message ? message.text : ''))).toEqual(['คำตอบทาง Telegram']);
    const up = await readyz(base);
    expect(up.body.platforms).toMatchObject({ telegram: 'running', line: 'running' });
    expect(up.body.platformsDown).toEqual({});
    expect(up.status).toBe(200);

    saeng.signal('SIGTERM');
    expect(await saeng.exited).toBe(0);
  });

  it('LINE: a signed event delivered while getBotInfo is pending is stored (200) and answered once the start finished', async () => {
    line = await startFakeLine();
    line.failNext('GET /v2/bot/info', { status: 503, body: { message: 'Service Unavailable' } });
    // The fake looks at holds before failures: the first call passes the hold and gets the 503, the second is held.
    line.holdNext('GET /v2/bot/info', 1);
    model.script({ text: 'ตอบแรก' }, { text: 'ตอบสอง' });
    const saeng = startSaeng(
      environment({
        LINE_CHANNEL_SECRET: line.channelSecret,
        LINE_CHANNEL_ACCESS_TOKEN: line.channelAccessToken,
        LINE_API_BASE_URL: line.url,
        LINE_DATA_API_BASE_URL: line.url,
        BOT_LANGUAGE: 'en',
      }),
      workDir,
    );
    const base = await httpBase(saeng);
    // The first attempt got a 503 (logged in English here), the second is held by the fake.
    const retried = await saeng.line('stderr', 'line did not start (attempt 1: the server answered HTTP 503)');
    expect(retried).toContain('trying again in');
    await line.waitForCall('GET /v2/bot/info', () => (line?.callsOf('GET /v2/bot/info').length ?? 0) >= 2);

    const webhookUrl = `${base}/webhooks/line`;
    const first = await line.postWebhook(webhookUrl, line.webhookBody(line.textEvent({ source: userSource(malee), text: 'ข้อแรก' })));
    const second = await line.postWebhook(webhookUrl, line.webhookBody(line.textEvent({ source: userSource(malee), text: 'ข้อสอง' })));
    expect([first.status, second.status]).toEqual([200, 200]);
    const starting = await readyz(base);
    expect(starting.body.platforms).toMatchObject({ line: 'retrying' });
    expect(starting.body.platformsDown.line?.reason).toBe('the server answered HTTP 503');
    expect(line.sentMessages(malee)).toEqual([]);
    expect(model.chatRequests).toHaveLength(0);

    line.releaseHeld();
    await saeng.line('stdout', 'line started after 2 attempts');
    await line.waitForCall(/^POST \/v2\/bot\/message\/(reply|push)$/, () => (line?.sentMessages(malee).length ?? 0) >= 2);
    // In order, each once.
    expect(lineTexts(malee)).toEqual(['ตอบแรก', 'ตอบสอง']);
    expect(model.chatRequests).toHaveLength(2);

    saeng.signal('SIGTERM');
    expect(await saeng.exited).toBe(0);
  });
});

describe('a refused token stops the start', { timeout: 90_000 }, () => {
  it('a wrong TELEGRAM_BOT_TOKEN: exit 1 with the Thai line naming it; English with BOT_LANGUAGE=en', async () => {
    telegram = await startFakeTelegram({ chats: [chat] });
    const wrong = `${telegram.token.split(':')[0] ?? '1'}:wrong-token-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;
    const thai = startSaeng(environment({ TELEGRAM_BOT_TOKEN: wrong, TELEGRAM_API_ROOT: telegram.url }), workDir);
    expect(await thai.exited).toBe(1);
    expect(thai.stderr()).toContain('TELEGRAM_BOT_TOKEN ถูก Telegram ปฏิเสธ (401): คัดลอกโทเค็นของบอทจาก @BotFather');
    expect(thai.stderr() + thai.stdout()).not.toContain(wrong);

    const english = startSaeng(environment({ TELEGRAM_BOT_TOKEN: wrong, TELEGRAM_API_ROOT: telegram.url, BOT_LANGUAGE: 'en' }), workDir);
    expect(await english.exited).toBe(1);
    expect(english.stderr()).toContain("TELEGRAM_BOT_TOKEN was refused by Telegram (401): copy the bot's token again from @BotFather");
    expect(english.stderr()).not.toMatch(/^\s+at /m);
  });
});
