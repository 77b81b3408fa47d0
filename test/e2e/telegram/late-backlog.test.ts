import { afterEach, describe, expect, it } from 'vitest';
import { privateChat, textMessageUpdate, user } from '../../fakes/telegram/index.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';

// A stale backlog through real telegraf polling the fake Bot API and the real app: Telegram's own `date` of a message
// is its age, so a question two hours old is answered with the late note, and three a day old get one reply that
// lists them — no turn runs for them.

const somchai = user(502, 'สมชาย', 'somchai');
const direct = privateChat(somchai);
const hoursAgo = (hours: number) => Math.floor(Date.now() / 1000) - hours * 3600;

let harness: TelegramHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('Telegram: a stale backlog', () => {
  it('answers a question two hours old with the late note in front of the model answer', async () => {
    harness = await startTelegramHarness();
    harness.model.script({ text: 'ร้านเปิด **8 โมง** ครับ' });
    await harness.deliver(textMessageUpdate({ chat: direct, from: somchai, text: 'ร้านเปิดกี่โมง', date: hoursAgo(2) }));
    const [answer] = harness.sentTexts(direct.id);
    expect(answer).toMatch(/^\(ตอบช้า: ข้อความนี้ส่งมาเมื่อ \d{1,2} \S+ \d{2}:\d{2} น\.\)\n\nร้านเปิด 8 โมง ครับ$/);
    // The answer's Markdown is still rendered: the bold sits after the note.
    const [sent] = harness.telegram.sentMessages(direct.id);
    expect(sent && 'entities' in sent ? sent.entities : []).toEqual([expect.objectContaining({ type: 'bold', length: 5 })]);
    expect(harness.model.chatRequests).toHaveLength(1);
  });

  it('answers three questions over a day old, waiting behind a running turn, with one list and no model call', async () => {
    harness = await startTelegramHarness();
    const { telegram, model } = harness;
    const modelAsked = new Promise<void>((resolve) => model.script({ hang: true, text: '', expect: () => resolve() }));
    telegram.pushUpdate(textMessageUpdate({ chat: direct, from: somchai, text: 'สวัสดี' }));
    await modelAsked;
    // Stored while the conversation is busy: they wait behind it, as a backlog does behind downtime.
    const questions = ['ราคาเท่าไร', 'ส่งของวันไหน', 'มีสีแดงไหม'];
    let last: { update_id: number } | undefined;
    for (const [at, text] of questions.entries()) last = telegram.pushUpdate(textMessageUpdate({ chat: direct, from: somchai, text, date: hoursAgo(30 - at) }));
    await telegram.waitForCall('getUpdates', (call) => Number(call.params.offset) > (last?.update_id ?? Infinity));
    model.continueHanging('สวัสดีครับ', { finish: true });
    await harness.test.app.inbound.idle();

    const sent = harness.sentTexts(direct.id);
    expect(sent).toHaveLength(2);
    expect(sent[0]).toBe('สวัสดีครับ');
    // The Markdown list as Telegram shows it.
    const listed = sent[1]!.split('\n').filter((line) => line.startsWith('• '));
    expect(listed.map((line) => line.replace(/^• .*น\.: /, ''))).toEqual(questions);
    expect(sent[1]).toContain('ถามใหม่');
    expect(model.chatRequests).toHaveLength(1);
    // Each of the four was handled; the two covered by the list sent nothing of their own.
    expect(harness.handled.map((handled) => handled.replies.length)).toEqual([1, 1, 0, 0]);
  });
});
