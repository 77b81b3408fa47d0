import { describe, expect, it } from 'vitest';
import { groupChat, user } from '../../fakes/telegram/index.js';
import { botProcessWorld } from './bot-process-world.js';

// kill -9 of the real bot (src/main.ts) while a group answer streams into its live message, or while the final
// reply completes it, then a restart on the same DATA_DIR: the group ends with one message from the bot — the live
// one, completed with the answer — never a second copy (docs/architecture.md, "Streaming answers").

const somchai = user(7001, 'Somchai');
const group = groupChat(-1009876543210, 'ทีมแสง');
const opening = 'ราคาทองคำวันนี้ปรับตัวขึ้นเล็กน้อยเมื่อเทียบกับเมื่อวานครับ นักวิเคราะห์หลายสำนัก';
const rest = 'คาดว่าราคาจะทรงตัวต่อไปในสัปดาห์นี้ ตามแรงซื้อจากต่างประเทศที่ยังต่อเนื่อง หากจะซื้อควรติดตามประกาศอีกครั้งในช่วงบ่ายครับ';
const answer = `${opening} ${rest}`;

const world = botProcessWorld(group, somchai, 'saeng-telegram-stream-crash-');

const botTexts = () => world.telegram.sentMessages(group.id).flatMap((message) => ('text' in message ? [message.text] : []));

describe('Telegram streaming, bot killed with SIGKILL and restarted on the same DATA_DIR', { timeout: 60_000 }, () => {
  it('mid-stream: the resumed turn streams into the same live message and completes it; one message in the group', async () => {
    world.model.script({ hang: true, text: opening });
    const first = await world.startBot();
    await world.askAndConfirm('@saeng_test_bot ราคาทองวันนี้เป็นยังไง');
    // The live message is posted; once the model writes on, the next update is an edit of it — its id is stored by then.
    await world.telegram.waitForCall('sendMessage');
    expect(world.model.continueHanging(` ${rest.slice(0, 60)}`)).toBe(true);
    await world.telegram.waitForCall('editMessageText');
    expect(await first.kill('SIGKILL')).toBeNull();
    expect(botTexts()).toHaveLength(1);

    world.model.script({ text: answer });
    const second = await world.startBot();
    await world.telegram.waitForCall('editMessageText', () => botTexts()[0] === answer);
    expect(await second.kill('SIGTERM')).toBe(0);
    expect(botTexts()).toEqual([answer]);
    expect(world.telegram.callsOf('sendMessage')).toHaveLength(1);
  });

  it('while the final reply completes the live message: after the restart the stored answer edits it, the model is not asked again', async () => {
    // A second answer only for a machine so slow that a paced preview edit (1 s) came before the turn ended.
    world.model.script({ text: answer }, { text: answer });
    // The first live post passes; the next edit of it is held — the final reply's — so the bot dies with it stored.
    world.telegram.holdNext('editMessageText');
    const first = await world.startBot();
    await world.askAndConfirm('@saeng_test_bot ราคาทองวันนี้เป็นยังไง');
    await world.telegram.waitForCall('editMessageText');
    const finalWasStored = world.telegram.callsOf('editMessageText')[0]?.params.text === answer;
    expect(await first.kill('SIGKILL')).toBeNull();
    expect(botTexts()).toHaveLength(1);
    expect(botTexts()[0]).not.toBe(answer);

    const second = await world.startBot();
    await world.telegram.waitForCall('editMessageText', () => botTexts()[0] === answer);
    expect(await second.kill('SIGTERM')).toBe(0);
    expect(botTexts()).toEqual([answer]);
    expect(world.telegram.callsOf('sendMessage')).toHaveLength(1);
    expect(world.model.chatRequests).toHaveLength(finalWasStored ? 1 : 2);
  });
});
