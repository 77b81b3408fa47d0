import { afterEach, describe, expect, it } from 'vitest';
import { messagesOf } from '../../fakes/recorded-messages.js';
import { groupChat, textMessageUpdate, user, type NewUpdate } from '../../fakes/telegram/index.js';
import { longThaiText } from '../../support/long-thai-text.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';

// A group upgraded to a supergroup keeps its knowledge bases, their bindings and its conversation under the new
// chat id; and in a forum topic every part of an answer, the typing and the progress message stay in the topic.

const manee = user(601, 'มานี', 'manee');
const oldGroup = groupChat(-4_001_234_567, 'ทีมแสง', 'group');
const supergroup = groupChat(-1_004_001_234_567, 'ทีมแสง');

let harness: TelegramHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const mention = (text: string) => `@${harness?.telegram.bot.username ?? ''} ${text}`;

function serviceMessage(fields: Record<string, unknown>): NewUpdate {
  return { message: { message_id: 90, date: Math.floor(Date.now() / 1000), from: manee, ...fields } } as unknown as NewUpdate;
}

describe('Telegram group → supergroup migration', () => {
  it('moves the knowledge bases, their binding and the history to the new chat id, once', async () => {
    harness = await startTelegramHarness({
      telegram: {
        members: [
          { chatId: oldGroup.id, userId: manee.id, status: 'administrator' },
          { chatId: supergroup.id, userId: manee.id, status: 'administrator' },
        ],
      },
    });
    const { telegram, test } = harness;
    await harness.deliver(textMessageUpdate({ chat: oldGroup, from: manee, text: '/kb create คู่มือ' }));
    await harness.deliver(textMessageUpdate({ chat: oldGroup, from: manee, text: '/kb bind คู่มือ' }));
    harness.model.script({ text: 'ร้านเปิดแปดโมงเช้า' });
    await harness.deliver(textMessageUpdate({ chat: oldGroup, from: manee, text: mention('ร้านเปิดกี่โมง') }));

    telegram.migrateChat(oldGroup.id, supergroup);
    // Telegram sends both: one in the old chat, one opening the new.
    await harness.deliver(serviceMessage({ chat: oldGroup, migrate_to_chat_id: supergroup.id }));
    await harness.deliver(serviceMessage({ chat: supergroup, migrate_from_chat_id: oldGroup.id }));

    const [knowledgeBase] = await test.app.knowledge.listKnowledgeBases({ spaceKey: `telegram:${supergroup.id}` });
    expect(knowledgeBase?.name).toBe('คู่มือ');
    expect(await test.app.knowledge.listKnowledgeBases({ spaceKey: `telegram:${oldGroup.id}` })).toEqual([]);
    expect(await test.app.knowledge.boundKnowledgeBaseIds(`telegram:${supergroup.id}`)).toEqual([knowledgeBase?.id]);
    expect(await test.app.knowledge.boundKnowledgeBaseIds(`telegram:${oldGroup.id}`)).toEqual([]);

    harness.model.script({ text: 'ปิดสองทุ่ม' });
    await harness.deliver(textMessageUpdate({ chat: supergroup, from: manee, text: mention('แล้วปิดกี่โมง') }));
    const request = harness.model.chatRequests.at(-1) ?? {};
    const earlier = messagesOf(request).map((message) => message.content);
    expect(earlier).toContain('ร้านเปิดแปดโมงเช้า');
    expect(harness.sentTexts(supergroup.id).at(-1)).toBe('ปิดสองทุ่ม');

    // The administrator manages the moved knowledge base from the new chat.
    await harness.deliver(textMessageUpdate({ chat: supergroup, from: manee, text: '/kb list' }));
    expect(harness.sentTexts(supergroup.id).at(-1)).toContain('คู่มือ');
  });

  it('sends an answer queued for the old chat id to the supergroup', async () => {
    harness = await startTelegramHarness();
    harness.telegram.addChat(oldGroup);
    harness.telegram.migrateChat(oldGroup.id, supergroup);
    harness.model.script({ text: 'ตอบในกลุ่มใหม่' });
    await harness.deliver(textMessageUpdate({ chat: oldGroup, from: manee, text: mention('ยังอยู่ไหม') }));
    expect(harness.sentTexts(supergroup.id)).toEqual(['ตอบในกลุ่มใหม่']);
    const refused = harness.telegram.callsOf('sendMessage').filter((call) => call.outcome?.ok === false);
    expect(refused.map((call) => Number(call.params.chat_id))).toEqual([oldGroup.id]);
  });
});

describe('Telegram forum topics', () => {
  const forum = { ...groupChat(-1_005_551_234_567, 'ชุมชนแสง'), is_forum: true } as const;
  const topicId = 44;

  it('keeps every part of a long answer and the typing in the topic', async () => {
    harness = await startTelegramHarness();
    harness.model.script({ text: longThaiText(5_000) });
    const question = textMessageUpdate({ chat: forum, from: manee, text: mention('เล่ายาว ๆ') });
    Object.assign(question.message, { message_thread_id: topicId, is_topic_message: true });
    await harness.deliver(question);
    const parts = harness.telegram.sentMessages(forum.id);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.map((part) => part.message_thread_id)).toEqual(parts.map(() => topicId));
    const typing = harness.telegram.callsOf('sendChatAction');
    expect(typing.length).toBeGreaterThan(0);
    expect(typing.map((call) => Number(call.params.message_thread_id))).toEqual(typing.map(() => topicId));
  });
});
