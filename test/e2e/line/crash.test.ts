import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lineUserId, startFakeLine, userSource, type FakeLine } from '../../fakes/line/index.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { botEnvironment, killAllBots, startBotProcess, type BotProcess } from '../../support/bot-process.js';

// kill -9 of the real bot (src/main.ts with the LINE webhook on its HTTP server, real @line/bot-sdk) during the
// model call and while the reply is in flight, then a restart on the same DATA_DIR: every event LINE got a 200 for
// is answered exactly once. LINE does not deliver a 200'd event again: what was stored is all there is.

const somchai = lineUserId('somchai');

let line: FakeLine;
let model: FakeModelServer;
let workDir: string;

beforeEach(async () => {
  line = await startFakeLine();
  model = await startFakeModelServer({ flavour: 'generic', modelId: 'test-model' });
  workDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-line-crash-'));
});
afterEach(async () => {
  await killAllBots();
  await line.close();
  await model.close();
  rmSync(workDir, { recursive: true, force: true });
});

async function startBot(): Promise<{ bot: BotProcess; webhookUrl: string }> {
  const bot = await startBotProcess(
    {
      LINE_CHANNEL_SECRET: line.channelSecret,
      LINE_CHANNEL_ACCESS_TOKEN: line.channelAccessToken,
      LINE_API_BASE_URL: line.url,
      LINE_DATA_API_BASE_URL: line.url,
      ...botEnvironment(model.url, path.join(workDir, 'data'), 'info'),
    },
    workDir,
  );
  // The port the system gave HTTP_PORT=0, from the bot's own log line.
  const listening = await bot.stdoutLine('"http server listening"');
  const port = (JSON.parse(listening) as { port?: number }).port;
  if (!port) throw new Error(`no listening port in the log:\n${bot.stderr()}`);
  return { bot, webhookUrl: `http://127.0.0.1:${port}/webhooks/line` };
}

const texts = () => line.sentMessages(somchai).map((message) => message.text);

describe('LINE bot killed with SIGKILL, restarted on the same DATA_DIR', { timeout: 60_000 }, () => {
  it('during the model call: the stored question is answered once after the restart', async () => {
    const modelCalled = new Promise<void>((resolve) => model.script({ hang: true, expect: () => resolve() }));
    const first = await startBot();
    const answer = await line.postWebhook(first.webhookUrl, line.webhookBody(line.textEvent({ source: userSource(somchai), text: 'ร้านเปิดกี่โมง' })));
    expect(answer.status).toBe(200);
    await modelCalled;
    expect(await first.bot.kill('SIGKILL')).toBeNull();

    model.script({ text: 'เปิดแปดโมงเช้า' });
    const second = await startBot();
    await line.waitForCall('POST /v2/bot/message/reply', (call) => call.outcome !== undefined && 'status' in call.outcome && call.outcome.status === 200);
    expect(await second.bot.kill('SIGTERM')).toBe(0);
    expect(texts()).toEqual(['เปิดแปดโมงเช้า']);
    expect(model.chatRequests).toHaveLength(2);
  });

  it('while the reply call is in flight: sent once after the restart, the model not asked again', async () => {
    model.script({ text: 'คำตอบที่เก็บไว้แล้ว' });
    line.holdNext('POST /v2/bot/message/reply');
    const first = await startBot();
    await line.postWebhook(first.webhookUrl, line.webhookBody(line.textEvent({ source: userSource(somchai), text: 'สวัสดี' })));
    await line.waitForCall('POST /v2/bot/message/reply');
    expect(await first.bot.kill('SIGKILL')).toBeNull();

    const second = await startBot();
    await line.waitForCall('POST /v2/bot/message/reply', (call) => call.outcome !== undefined && 'status' in call.outcome && call.outcome.status === 200);
    expect(await second.bot.kill('SIGTERM')).toBe(0);
    expect(texts()).toEqual(['คำตอบที่เก็บไว้แล้ว']);
    expect(model.chatRequests).toHaveLength(1);
  });
});
