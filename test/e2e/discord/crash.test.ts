import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderForPlatform } from '../../adapters/format/by-platform.js';
import { discordUser, startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { botEnvironment, killAllBots, startBotProcess, type BotProcess } from '../../support/bot-process.js';
import { longThaiText } from '../../support/long-thai-text.js';

// kill -9 of the real bot (src/main.ts, real discord.js on the fake gateway) at three moments of a turn, then a
// restart on the same DATA_DIR. The gateway never sends an event twice, so what the bot had stored is all there is:
// every stored question is answered exactly once, the model is not asked again for a stored answer, and the part
// sent before the kill is not sent again.

const somchai = discordUser('somchai', { globalName: 'สมชาย' });

let discord: FakeDiscord;
let model: FakeModelServer;
let workDir: string;

beforeEach(async () => {
  discord = await startFakeDiscord({ guilds: [{ name: 'ทีมแสง', channels: [{ name: 'general' }], members: [{ user: somchai }] }] });
  model = await startFakeModelServer({ flavour: 'generic', modelId: 'test-model' });
  workDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-discord-crash-'));
});
afterEach(async () => {
  await killAllBots();
  await discord.close();
  await model.close();
  rmSync(workDir, { recursive: true, force: true });
});

function startBot(): Promise<BotProcess> {
  return startBotProcess(
    {
      DISCORD_TOKEN: discord.token,
      DISCORD_API_BASE_URL: discord.apiUrl,
      ...botEnvironment(model.url, path.join(workDir, 'data'), 'warn'),
    },
    workDir,
  );
}

const general = () => discord.channel('general').id;
const ask = (channelId: string, text: string) => discord.dispatchMessage({ channelId, author: somchai, content: `<@${discord.botUser.id}> ${text}` });
const contents = (channelId: string) => discord.sentMessages(channelId).map((message) => message.content);

/** Resolves once `count` messages were posted in the channel. */
async function posted(channelId: string, count: number): Promise<void> {
  await discord.waitForCall('POST /channels/*/messages', () => discord.sentMessages(channelId).length >= count);
}

describe('Discord bot process with a refused token', { timeout: 60_000 }, () => {
  it('exits non-zero with the reason in Thai, naming DISCORD_TOKEN (pm2 backs off instead of a bot that looks up)', async () => {
    const started = startBotProcess(
      { DISCORD_TOKEN: 'not-the-token', DISCORD_API_BASE_URL: discord.apiUrl, MODEL_BASE_URL: model.url, DATA_DIR: path.join(workDir, 'data'), HTTP_PORT: '0' },
      workDir,
    );
    await expect(started).rejects.toThrow(/exited \(1\)[\s\S]*DISCORD_TOKEN ถูก Discord ปฏิเสธ \(401\)/);
  });
});

// Each test starts the bot twice (about two seconds each with tsx).
describe('Discord bot killed with SIGKILL, restarted on the same DATA_DIR', { timeout: 60_000 }, () => {
  it('during two model calls (a channel and a DM): both answered once after the restart', async () => {
    let calls = 0;
    const bothAsked = new Promise<void>((resolve) => {
      const step = {
        hang: true as const,
        expect: () => {
          calls += 1;
          if (calls === 2) resolve();
        },
      };
      model.script(step, step);
    });
    const first = await startBot();
    const dm = discord.dmChannel(somchai).id;
    await ask(general(), 'ร้านเปิดกี่โมง');
    await ask(dm, 'ส่วนตัวนะ ปิดกี่โมง');
    await bothAsked;
    expect(await first.kill('SIGKILL')).toBeNull();
    expect(discord.sentMessages()).toEqual([]);

    model.script({ text: 'เปิดแปดโมงเช้า' }, { text: 'ปิดสองทุ่ม' });
    const second = await startBot();
    await posted(general(), 1);
    await posted(dm, 1);
    expect(await second.kill('SIGTERM')).toBe(0);
    expect([...contents(general()), ...contents(dm)].sort()).toEqual(['ปิดสองทุ่ม', 'เปิดแปดโมงเช้า']);
    expect(model.chatRequests).toHaveLength(4);
  });

  it('after the answer was stored, before it was posted: posted once after the restart, the model not asked again', async () => {
    model.script({ text: 'คำตอบที่เก็บไว้แล้ว' });
    discord.holdNext('POST /channels/*/messages');
    const first = await startBot();
    await ask(general(), 'สวัสดี');
    await discord.waitForCall('POST /channels/*/messages');
    expect(await first.kill('SIGKILL')).toBeNull();
    expect(contents(general())).toEqual([]);

    const second = await startBot();
    await posted(general(), 1);
    expect(await second.kill('SIGTERM')).toBe(0);
    expect(contents(general())).toEqual(['คำตอบที่เก็บไว้แล้ว']);
    expect(model.chatRequests).toHaveLength(1);
  });

  it('between two parts of a long answer: the first part is not posted again', async () => {
    const answer = longThaiText(3_000);
    const expected = renderForPlatform(answer, 'discord');
    model.script({ text: answer });
    discord.holdNext('POST /channels/*/messages', 1);
    const first = await startBot();
    await ask(general(), 'เล่าให้ฟังยาว ๆ');
    await discord.waitForCall('POST /channels/*/messages', (call) => 'held' in (call.outcome ?? {}));
    const beforeKill = contents(general());
    expect(beforeKill).toHaveLength(1);
    expect(await first.kill('SIGKILL')).toBeNull();

    const second = await startBot();
    await posted(general(), expected.length);
    expect(await second.kill('SIGTERM')).toBe(0);
    expect(expected.length).toBeGreaterThan(1);
    expect(contents(general())).toEqual(expected);
    expect(beforeKill).toEqual(expected.slice(0, 1));
    expect(model.chatRequests).toHaveLength(1);
  });
});
