import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { privateChat, startFakeTelegram, textMessageUpdate, user, type FakeTelegram } from '../../fakes/telegram/index.js';
import { botEnvironment, killAllBots, startBotProcess, type BotProcess } from '../../support/bot-process.js';

// A message whose handling kills the process (here: the test SIGKILLs the real bot each time the fake model sees
// that message's request). The process cannot tell this from a power cut, so the first interruption is resumed;
// after the second death the message is set aside: the user hears so, and the conversation goes on normally.

const somchai = user(7101, 'Somchai');
const chat = privateChat(somchai);
const poison = 'ข้อความที่ทำให้บอทล่ม';

let telegram: FakeTelegram;
let model: FakeModelServer;
let workDir: string;

beforeEach(async () => {
  telegram = await startFakeTelegram({ chats: [chat] });
  model = await startFakeModelServer({ flavour: 'generic', modelId: 'test-model' });
  workDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-telegram-poison-'));
});
afterEach(async () => {
  await killAllBots();
  await telegram.close();
  await model.close();
  rmSync(workDir, { recursive: true, force: true });
});

function startBot(): Promise<BotProcess> {
  return startBotProcess(
    { TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.url, ...botEnvironment(model.url, path.join(workDir, 'data'), 'warn') },
    workDir,
  );
}

async function askAndConfirm(text: string): Promise<void> {
  const pushed = telegram.pushUpdate(textMessageUpdate({ chat, from: somchai, text }));
  if (!pushed) throw new Error('not delivered');
  await telegram.waitForCall('getUpdates', (call) => Number(call.params.offset) > pushed.update_id);
}

/** The fake model's next request is the poison one: resolves when it arrives (the stream is then held open). */
function poisonRequest(): Promise<void> {
  return new Promise((resolve) =>
    model.script({
      hang: true,
      expect: (body) => {
        expect(JSON.stringify(body.messages)).toContain(poison);
        resolve();
      },
    }),
  );
}

const sentTexts = () => telegram.sentMessages(chat.id).flatMap((message) => ('text' in message ? [message.text] : []));

describe('a message that kills the bot (SIGKILL whenever the model sees it)', { timeout: 90_000 }, () => {
  it('is resumed once, set aside after the second death with a Thai notice, and the next message is answered', async () => {
    let seen = poisonRequest();
    const first = await startBot();
    await askAndConfirm(poison);
    await seen;
    expect(await first.kill('SIGKILL')).toBeNull();

    // The restart resumes it (it may have been a power cut): the model sees it again, and the bot dies again.
    seen = poisonRequest();
    const second = await startBot();
    await seen;
    expect(await second.kill('SIGKILL')).toBeNull();
    expect(sentTexts()).toEqual([]);

    const third = await startBot();
    const logged = await third.stderrLine('message set aside');
    await telegram.waitForCall('sendMessage', () => telegram.sentMessages(chat.id).length >= 1);
    expect(sentTexts()).toHaveLength(1);
    expect(sentTexts()[0]).toContain('ระบบขัดข้องระหว่างตอบข้อความนี้ จึงพักข้อความนี้ไว้');
    // Logged at error with the message id, never its text.
    expect(logged).toContain('"level":50');
    expect(logged).toMatch(/"messageId":"[^"]+"/);
    expect(third.stderr()).not.toContain(poison);

    model.script({ text: 'ตอบตามปกติครับ' });
    await askAndConfirm('คำถามถัดไป');
    await telegram.waitForCall('sendMessage', () => telegram.sentMessages(chat.id).length >= 2);
    expect(sentTexts()[1]).toBe('ตอบตามปกติครับ');
    expect(await third.kill('SIGTERM')).toBe(0);
    // Two poison calls and the next question: the set-aside message never reached the model a third time.
    expect(model.chatRequests).toHaveLength(3);
    model.assertAllConsumed();
  });
});
