import type { Message, User } from 'telegraf/types';
import { describe, expect, it } from 'vitest';
import { mergeAlbum } from '../../../adapters/telegram/album.js';
import { normalizeTelegramMessage } from '../../../adapters/telegram/inbound.js';
import { parseInboundMessage } from '../../../src/shared/inbound-message-schema.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import {
  documentUpdate,
  groupChat,
  mediaUpdate,
  photoSizes,
  photoUpdate,
  privateChat,
  textMessageUpdate,
  user,
  type MediaKind,
} from '../../fakes/telegram/index.js';

// Voice notes, audio, videos (video notes and animations too) and stickers become messages marked `unreadable`,
// their caption still the question; text, photos and documents are not marked.

const bot = { id: 7_123_456_789, username: 'saeng_test_bot' };
const botUser: User = { id: bot.id, is_bot: true, first_name: 'แสง', username: bot.username };
const somchai: User = user(501, 'สมชาย', 'somchai');
const group = groupChat(-1001234567890, 'ทีมแสง');

function normalize(message: Message): InboundMessage {
  const result = normalizeTelegramMessage(message, bot, { maxImageBytes: 10_000_000 });
  if (!result) throw new Error('expected a message');
  return result;
}

describe('Telegram normalization of what the bot cannot read', () => {
  it.each([
    ['voice', 'voice'],
    ['audio', 'audio'],
    ['video', 'video'],
    ['video_note', 'video'],
    ['animation', 'video'],
    ['sticker', 'sticker'],
  ] as const)('marks a %s in a private chat as %s, with no attachment, kept through the stored schema', (kind: MediaKind, unreadable) => {
    const message = normalize(mediaUpdate({ chat: privateChat(somchai), from: somchai, kind }).message);
    expect(message).toMatchObject({ chatKind: 'direct', text: '', attachments: [], unreadable });
    expect(parseInboundMessage(JSON.parse(JSON.stringify(message)))?.unreadable).toBe(unreadable);
  });

  it('keeps a caption that mentions the bot as the question', () => {
    const message = normalize(mediaUpdate({ chat: group, from: somchai, kind: 'video', caption: '@saeng_test_bot คลิปนี้ถ่ายที่ไหน' }).message);
    expect(message).toMatchObject({ chatKind: 'group', text: 'คลิปนี้ถ่ายที่ไหน', mentionsBot: true, unreadable: 'video' });
  });

  it('takes a sticker that replies to the bot as addressed, and one in the group alone as not', () => {
    const answer = textMessageUpdate({ chat: group, from: botUser, text: 'คำตอบก่อนหน้า' }).message;
    expect(normalize(mediaUpdate({ chat: group, from: somchai, kind: 'sticker', replyTo: answer }).message)).toMatchObject({
      repliesToBot: true,
      unreadable: 'sticker',
    });
    expect(normalize(mediaUpdate({ chat: group, from: somchai, kind: 'sticker' }).message)).toMatchObject({ repliesToBot: false, mentionsBot: false });
  });

  it('leaves text, photos and documents alone', () => {
    const chat = privateChat(somchai);
    const messages = [
      textMessageUpdate({ chat, from: somchai, text: 'สวัสดี' }),
      photoUpdate({ chat, from: somchai, sizes: photoSizes('AgACphoto') }),
      documentUpdate({ chat, from: somchai, fileName: 'คู่มือ.pdf', mimeType: 'application/pdf' }),
    ].map((update) => normalize(update.message));
    expect(messages.map((message) => message.attachments.map((attachment) => attachment.kind))).toEqual([[], ['image'], ['file']]);
    expect(messages.map((message) => 'unreadable' in message)).toEqual([false, false, false]);
  });

  it('drops the mark from an album whose photos came with a video, and keeps it for an album of videos alone', () => {
    const member = (messageId: number, kind: 'photo' | 'video') =>
      normalize(
        kind === 'photo'
          ? photoUpdate({ chat: group, from: somchai, messageId, media_group_id: 'a', sizes: photoSizes(`AgAC${messageId}`) }).message
          : mediaUpdate({ chat: group, from: somchai, messageId, media_group_id: 'a', kind: 'video' }).message,
      );
    const mixed = mergeAlbum([member(11, 'video'), member(12, 'photo')]);
    expect(mixed.attachments).toHaveLength(1);
    expect('unreadable' in mixed).toBe(false);
    expect(mergeAlbum([member(21, 'video'), member(22, 'video')]).unreadable).toBe('video');
  });
});
