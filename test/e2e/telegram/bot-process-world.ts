import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { startFakeTelegram, textMessageUpdate, type FakeTelegram } from '../../fakes/telegram/index.js';
import { botEnvironment, killAllBots, startBotProcess, type BotProcess } from '../../support/bot-process.js';

// The real bot as a process (src/main.ts, real telegraf long polling) against the fake Bot API and the fake model,
// fresh for each test and torn down after it: the world of the kill -9 tests (crash, streaming crash, poison message).

type Chat = Parameters<typeof textMessageUpdate>[0]['chat'];
type From = Parameters<typeof textMessageUpdate>[0]['from'];

export interface BotProcessWorld {
  telegram: FakeTelegram;
  model: FakeModelServer;
  /** Starts the bot on the test's DATA_DIR (the same one on every call: a restart). */
  startBot(): Promise<BotProcess>;
  /** Pushes a question and resolves once the bot confirmed it (its next getUpdates offset is past it); its update id. */
  askAndConfirm(text: string): Promise<number>;
}

/** Registers the per-test set-up; the returned world is filled in before each test. */
export function botProcessWorld(chat: Chat, from: From, tempPrefix: string): BotProcessWorld {
  let workDir = '';
  const world = {
    startBot: () =>
      startBotProcess(
        {
          TELEGRAM_BOT_TOKEN: world.telegram.token,
          TELEGRAM_API_ROOT: world.telegram.url,
          ...botEnvironment(world.model.url, path.join(workDir, 'data'), 'warn'),
        },
        workDir,
      ),
    askAndConfirm: async (text: string) => {
      const pushed = world.telegram.pushUpdate(textMessageUpdate({ chat, from, text }));
      if (!pushed) throw new Error('not delivered');
      await world.telegram.waitForCall('getUpdates', (call) => Number(call.params.offset) > pushed.update_id);
      return pushed.update_id;
    },
  } as BotProcessWorld;
  beforeEach(async () => {
    world.telegram = await startFakeTelegram({ chats: [chat] });
    world.model = await startFakeModelServer({ flavour: 'generic', modelId: 'test-model' });
    workDir = mkdtempSync(path.join(os.tmpdir(), tempPrefix));
  });
  afterEach(async () => {
    await killAllBots();
    await world.telegram.close();
    await world.model.close();
    rmSync(workDir, { recursive: true, force: true });
  });
  return world;
}
