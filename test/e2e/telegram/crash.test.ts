import { describe, expect, it } from 'vitest';
import { privateChat, user } from '../../fakes/telegram/index.js';
import { botProcessWorld } from './bot-process-world.js';
import { longThaiText } from '../../support/long-thai-text.js';

// kill -9 of the real bot (src/main.ts, real telegraf, long polling against the fake Bot API) at three moments of
// a turn, then a restart on the same DATA_DIR: every message Telegram saw confirmed is answered exactly once, the
// model is not asked again for an answer already stored, and no part goes out twice except the one in flight.

const somchai = user(7001, 'Somchai');
const chat = privateChat(somchai);

const world = botProcessWorld(chat, somchai, 'saeng-telegram-crash-');

const sentTexts = () => world.telegram.sentMessages(chat.id).flatMap((message) => ('text' in message ? [message.text] : []));

/** Resolves once `count` messages were sent to the chat. */
async function sentCount(count: number): Promise<void> {
  await world.telegram.waitForCall('sendMessage', () => world.telegram.sentMessages(chat.id).length >= count);
}

// Each test starts the bot twice (about two seconds each with tsx).
describe('Telegram bot killed with SIGKILL, restarted on the same DATA_DIR', { timeout: 60_000 }, () => {
  it('during the model call with a second question queued behind it: both answered once, in order', async () => {
    const modelCalled = new Promise<void>((resolve) => world.model.script({ hang: true, expect: () => resolve() }));
    const first = await world.startBot();
    await world.askAndConfirm('ร้านเปิดกี่โมง');
    await world.askAndConfirm('แล้วปิดกี่โมง');
    await modelCalled;
    expect(await first.kill('SIGKILL')).toBeNull();
    expect(sentTexts()).toEqual([]);

    world.model.script({ text: 'เปิดแปดโมงเช้า' }, { text: 'ปิดสองทุ่ม' });
    const second = await world.startBot();
    await sentCount(2);
    expect(await second.kill('SIGTERM')).toBe(0);
    expect(sentTexts()).toEqual(['เปิดแปดโมงเช้า', 'ปิดสองทุ่ม']);
    // The restarted bot saw both updates again (not confirmed before the kill? then deduplicated) and asked the
    // model once per question, plus the one call that was cut off.
    expect(world.model.chatRequests).toHaveLength(3);
  });

  it('after the answer was stored, before it was sent: sent once after the restart, the model not asked again', async () => {
    world.model.script({ text: 'คำตอบที่เก็บไว้แล้ว' });
    world.telegram.holdNext('sendMessage');
    const first = await world.startBot();
    await world.askAndConfirm('สวัสดี');
    await world.telegram.waitForCall('sendMessage');
    expect(await first.kill('SIGKILL')).toBeNull();
    expect(sentTexts()).toEqual([]);

    const second = await world.startBot();
    await sentCount(1);
    expect(await second.kill('SIGTERM')).toBe(0);
    expect(sentTexts()).toEqual(['คำตอบที่เก็บไว้แล้ว']);
    expect(world.model.chatRequests).toHaveLength(1);
  });

  it('between two parts of a long answer: the first part is not sent again, the second arrives once', async () => {
    const answer = longThaiText(5_000);
    world.model.script({ text: answer });
    world.telegram.holdNext('sendMessage', 1);
    const first = await world.startBot();
    await world.askAndConfirm('เล่าให้ฟังยาว ๆ');
    await world.telegram.waitForCall('sendMessage', (call) => call.sequence > (world.telegram.callsOf('sendMessage')[0]?.sequence ?? Infinity));
    const beforeKill = sentTexts();
    expect(beforeKill).toHaveLength(1);
    expect(await first.kill('SIGKILL')).toBeNull();

    const second = await world.startBot();
    await sentCount(2);
    expect(await second.kill('SIGTERM')).toBe(0);
    const texts = sentTexts();
    expect(texts).toHaveLength(2);
    expect(texts[0]).toBe(beforeKill[0]);
    expect(texts.join('\n\n').replace(/\s+/g, ' ').trim()).toBe(answer.replace(/\s+/g, ' ').trim());
    expect(world.model.chatRequests).toHaveLength(1);
  });
});
