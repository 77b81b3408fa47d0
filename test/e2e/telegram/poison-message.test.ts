import { describe, expect, it } from 'vitest';
import { privateChat, user } from '../../fakes/telegram/index.js';
import { botProcessWorld } from './bot-process-world.js';

// A message whose handling kills the process (here: the test SIGKILLs the real bot each time the fake model sees
// that message's request). The process cannot tell this from a power cut, so the first interruption is resumed;
// after the second death the message is set aside: the user hears so, and the conversation goes on normally.

const somchai = user(7101, 'Somchai');
const chat = privateChat(somchai);
const poison = 'ข้อความที่ทำให้บอทล่ม';

const world = botProcessWorld(chat, somchai, 'saeng-telegram-poison-');

/** The fake model's next request is the poison one: resolves when it arrives (the stream is then held open). */
function poisonRequest(): Promise<void> {
  return new Promise((resolve) =>
    world.model.script({
      hang: true,
      expect: (body) => {
        expect(JSON.stringify(body.messages)).toContain(poison);
        resolve();
      },
    }),
  );
}

const sentTexts = () => world.telegram.sentMessages(chat.id).flatMap((message) => ('text' in message ? [message.text] : []));

describe('a message that kills the bot (SIGKILL whenever the model sees it)', { timeout: 90_000 }, () => {
  it('is resumed once, set aside after the second death with a Thai notice, and the next message is answered', async () => {
    let seen = poisonRequest();
    const first = await world.startBot();
    await world.askAndConfirm(poison);
    await seen;
    expect(await first.kill('SIGKILL')).toBeNull();

    // The restart resumes it (it may have been a power cut): the model sees it again, and the bot dies again.
    seen = poisonRequest();
    const second = await world.startBot();
    await seen;
    expect(await second.kill('SIGKILL')).toBeNull();
    expect(sentTexts()).toEqual([]);

    const third = await world.startBot();
    const logged = await third.stderrLine('message set aside');
    await world.telegram.waitForCall('sendMessage', () => world.telegram.sentMessages(chat.id).length >= 1);
    expect(sentTexts()).toHaveLength(1);
    expect(sentTexts()[0]).toContain('ระบบขัดข้องระหว่างตอบข้อความนี้ จึงพักข้อความนี้ไว้');
    // Logged at error with the message id, never its text.
    expect(logged).toContain('"level":50');
    expect(logged).toMatch(/"messageId":"[^"]+"/);
    expect(third.stderr()).not.toContain(poison);

    world.model.script({ text: 'ตอบตามปกติครับ' });
    await world.askAndConfirm('คำถามถัดไป');
    await world.telegram.waitForCall('sendMessage', () => world.telegram.sentMessages(chat.id).length >= 2);
    expect(sentTexts()[1]).toBe('ตอบตามปกติครับ');
    expect(await third.kill('SIGTERM')).toBe(0);
    // Two poison calls and the next question: the set-aside message never reached the model a third time.
    expect(world.model.chatRequests).toHaveLength(3);
    world.model.assertAllConsumed();
  });
});
