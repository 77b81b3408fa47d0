import type { Chat, Message, User } from 'telegraf/types';
import { describe, expect, it } from 'vitest';
import { migrationOf, normalizeTelegramMessage } from '../../../adapters/telegram/inbound.js';
import { parseInboundMessage } from '../../../src/shared/inbound-message-schema.js';
import { documentUpdate, groupChat, photoUpdate, privateChat, textMessageUpdate, user, type NewUpdate } from '../../fakes/telegram/index.js';

// Normalization over the update shapes the fake builds as Telegram does (UTF-16 entity offsets, captions on photos).

const bot = { id: 7_123_456_789, username: 'saeng_test_bot' };
const botUser: User = { id: bot.id, is_bot: true, first_name: 'แสง', username: bot.username };
const somchai: User = { ...user(501, 'สมชาย', 'somchai'), last_name: 'ใจดี' };
const group = groupChat(-1001234567890, 'ทีมแสง');
const forum: Chat = { id: -1009876543210, type: 'supergroup', title: 'ฟอรัม', is_forum: true };
const options = { maxImageBytes: 50_000 };

function messageOf(update: NewUpdate): Message {
  return update.message;
}

function normalize(message: Message) {
  return normalizeTelegramMessage(message, bot, options);
}

const botMessage = messageOf(textMessageUpdate({ chat: group, from: botUser, text: 'คำตอบก่อนหน้า' }));
const someoneMessage = messageOf(textMessageUpdate({ chat: group, from: user(502, 'สมหญิง'), text: 'ข้อความอื่น' }));

const addressingCases: { name: string; message: Message; text: string; mentionsBot: boolean; repliesToBot?: boolean }[] = [
  {
    name: 'Thai and emoji before the mention (UTF-16 offset past astral characters)',
    message: messageOf(textMessageUpdate({ chat: group, from: somchai, text: 'สวัสดี 👋🏽😀 @saeng_test_bot ช่วยสรุปข่าว 🙏' })),
    text: 'สวัสดี 👋🏽😀 ช่วยสรุปข่าว 🙏',
    mentionsBot: true,
  },
  {
    name: 'mention in another case, at the start with a comma',
    message: messageOf(textMessageUpdate({ chat: group, from: somchai, text: '@SAENG_Test_Bot, ราคาทองวันนี้' })),
    text: 'ราคาทองวันนี้',
    mentionsBot: true,
  },
  {
    name: 'mention of someone else stays',
    message: messageOf(textMessageUpdate({ chat: group, from: somchai, text: 'ถาม @somying ดีกว่า' })),
    text: 'ถาม @somying ดีกว่า',
    mentionsBot: false,
  },
  {
    name: '/kb@thisbot is addressed and kept for the command parser',
    message: messageOf(textMessageUpdate({ chat: group, from: somchai, text: '/kb@Saeng_Test_Bot list' })),
    text: '/kb@Saeng_Test_Bot list',
    mentionsBot: true,
  },
  {
    name: '/kb@otherbot is not addressed',
    message: messageOf(textMessageUpdate({ chat: group, from: somchai, text: '/kb@other_bot list' })),
    text: '/kb@other_bot list',
    mentionsBot: false,
  },
  {
    name: 'a bare /kb is left to admission',
    message: messageOf(textMessageUpdate({ chat: group, from: somchai, text: '/kb list' })),
    text: '/kb list',
    mentionsBot: false,
  },
  {
    name: 'text_mention of the bot (a mention by name)',
    message: messageOf(
      textMessageUpdate({ chat: group, from: somchai, text: '😀 แสง ช่วยแปลหน่อย', entities: [{ type: 'text_mention', offset: 3, length: 3, user: botUser }] }),
    ),
    text: '😀 ช่วยแปลหน่อย',
    mentionsBot: true,
  },
  {
    name: 'text_mention of another user stays',
    message: messageOf(
      textMessageUpdate({
        chat: group,
        from: somchai,
        text: 'สมหญิง ว่าไง',
        entities: [{ type: 'text_mention', offset: 0, length: 6, user: user(502, 'สมหญิง') }],
      }),
    ),
    text: 'สมหญิง ว่าไง',
    mentionsBot: false,
  },
  {
    name: 'reply to the bot',
    message: messageOf(textMessageUpdate({ chat: group, from: somchai, text: 'แล้วพรุ่งนี้ล่ะ', replyTo: botMessage })),
    text: 'แล้วพรุ่งนี้ล่ะ',
    mentionsBot: false,
    repliesToBot: true,
  },
  {
    name: 'reply to someone else',
    message: messageOf(textMessageUpdate({ chat: group, from: somchai, text: 'จริงด้วย', replyTo: someoneMessage })),
    text: 'จริงด้วย',
    mentionsBot: false,
  },
  {
    name: 'caption mention on a photo',
    message: messageOf(photoUpdate({ chat: group, from: somchai, caption: 'รูปนี้ 🌧️ @saeng_test_bot คืออะไร' })),
    text: 'รูปนี้ 🌧️ คืออะไร',
    mentionsBot: true,
  },
  {
    name: 'caption command on a document (telegraf does not match it; we do)',
    message: messageOf(documentUpdate({ chat: group, from: somchai, fileName: 'คู่มือ.pdf', mimeType: 'application/pdf', caption: '/kb@saeng_test_bot add คู่มือ' })),
    text: '/kb@saeng_test_bot add คู่มือ',
    mentionsBot: true,
  },
];

describe('normalizeTelegramMessage: addressing', () => {
  it.each(addressingCases)('$name', ({ message, text, mentionsBot, repliesToBot }) => {
    const normalized = normalize(message);
    expect(normalized).toMatchObject({ text, mentionsBot, repliesToBot: repliesToBot ?? false, chatKind: 'group' });
  });

  it('takes the mention out by UTF-16 offset, which differs from the code-point offset', () => {
    const text = 'ข่าว 👋🏽😀 @saeng_test_bot';
    expect(text.indexOf('@')).not.toBe([...text].indexOf('@'));
    expect(normalize(messageOf(textMessageUpdate({ chat: group, from: somchai, text })))?.text).toBe('ข่าว 👋🏽😀');
  });
});

describe('normalizeTelegramMessage: keys, sender, kinds', () => {
  it('keys a group by chat, names the sender, and survives JSON', () => {
    const message = messageOf(textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot สวัสดี', messageId: 321, date: 1_764_600_123 }));
    const normalized = normalize(message);
    expect(normalized).toEqual({
      platform: 'telegram',
      conversationKey: 'telegram:-1001234567890',
      spaceKey: 'telegram:-1001234567890',
      messageId: '-1001234567890:321',
      chatKind: 'group',
      sender: { id: '501', name: 'สมชาย ใจดี', isPlatformAdmin: false },
      text: 'สวัสดี',
      mentionsBot: true,
      repliesToBot: false,
      attachments: [],
      receivedAt: new Date(1_764_600_123_000),
    });
    expect(parseInboundMessage(JSON.parse(JSON.stringify(normalized)))).toEqual(normalized);
  });

  it('a private chat is direct and keeps the text whole', () => {
    const normalized = normalize(messageOf(textMessageUpdate({ chat: privateChat(somchai), from: somchai, text: '  ขอสูตรต้มยำ  ' })));
    expect(normalized).toMatchObject({ chatKind: 'direct', conversationKey: 'telegram:501', text: 'ขอสูตรต้มยำ', mentionsBot: false });
  });

  it('a forum topic gets its own conversation in the chat’s space; a reply thread in a plain supergroup does not', () => {
    const inTopic = {
      ...messageOf(textMessageUpdate({ chat: forum, from: somchai, text: '@saeng_test_bot ถาม' })),
      message_thread_id: 77,
      is_topic_message: true,
    } as Message;
    expect(normalize(inTopic)).toMatchObject({ conversationKey: 'telegram:-1009876543210:77', spaceKey: 'telegram:-1009876543210' });
    const replyThread = { ...messageOf(textMessageUpdate({ chat: group, from: somchai, text: 'ตอบ', replyTo: botMessage })), message_thread_id: 12 } as Message;
    expect(normalize(replyThread)?.conversationKey).toBe('telegram:-1001234567890');
  });

  it('in a forum, the implicit "reply" to a topic the bot created is not a reply to the bot', () => {
    const topicCreated = { message_id: 77, from: botUser, chat: forum, date: 1, forum_topic_created: { name: 'ข่าว', icon_color: 0 } } as Message;
    const message = {
      ...messageOf(textMessageUpdate({ chat: forum, from: somchai, text: 'สวัสดี' })),
      message_thread_id: 77,
      is_topic_message: true,
      reply_to_message: topicCreated,
    } as Message;
    expect(normalize(message)?.repliesToBot).toBe(false);
  });

  it('an anonymous admin (sender_chat is the group) is an admin, under the group’s id and the admin’s title', () => {
    const anonymous: User = { id: 1_087_968_824, is_bot: true, first_name: 'Group', username: 'GroupAnonymousBot' };
    const message = {
      ...messageOf(textMessageUpdate({ chat: group, from: anonymous, text: '/kb@saeng_test_bot list' })),
      sender_chat: group,
      author_signature: 'หัวหน้า',
    } as Message;
    expect(normalize(message)?.sender).toEqual({ id: '-1001234567890', name: 'หัวหน้า', isPlatformAdmin: true });
  });

  it('ignores other bots, channel posts, automatic forwards, service messages and locations', () => {
    const otherBot: User = { id: 999, is_bot: true, first_name: 'Other', username: 'other_bot' };
    const channel: Chat = { id: -1005555555555, type: 'channel', title: 'ช่อง' };
    const plain = messageOf(textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot hi' }));
    const ignored: Message[] = [
      messageOf(textMessageUpdate({ chat: group, from: otherBot, text: '@saeng_test_bot hi' })),
      { ...plain, chat: channel } as Message,
      { ...plain, sender_chat: channel, is_automatic_forward: true } as Message,
      { message_id: 5, from: somchai, chat: group, date: 1, new_chat_members: [somchai] } as Message,
      {
        message_id: 6,
        from: somchai,
        chat: group,
        date: 1,
        location: { latitude: 13.75, longitude: 100.5 },
      } as Message,
    ];
    for (const message of ignored) expect(normalize(message)).toBeUndefined();
  });

  it('reports a group → supergroup migration from either side', () => {
    const old = groupChat(-4001, 'เก่า', 'group');
    expect(migrationOf({ message_id: 9, chat: old, date: 1, migrate_to_chat_id: -1004001 } as Message)).toEqual({ from: -4001, to: -1004001 });
    expect(migrationOf({ message_id: 1, chat: group, date: 1, migrate_from_chat_id: -4001 } as Message)).toEqual({ from: -4001, to: -1001234567890 });
    expect(migrationOf(someoneMessage)).toBeUndefined();
  });
});
