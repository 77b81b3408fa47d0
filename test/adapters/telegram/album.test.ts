import type { Message } from 'telegraf/types';
import { describe, expect, it } from 'vitest';
import { AlbumCollector, mergeAlbum } from '../../../adapters/telegram/album.js';
import { mediaGroupOf, normalizeTelegramMessage } from '../../../adapters/telegram/inbound.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import { groupChat, photoSizes, photoUpdate, textMessageUpdate, user } from '../../fakes/telegram/index.js';
import { ManualScheduler } from '../../support/manual-scheduler.js';

// Albums arrive as one update per photo; the collector gives the core one question with every photo in order.

const bot = { id: 7_123_456_789, username: 'saeng_test_bot' };
const somchai = user(501, 'สมชาย', 'somchai');
const group = groupChat(-1001234567890, 'ทีมแสง');
const otherGroup = groupChat(-1002222222222, 'อีกกลุ่ม');

function albumMember(messageId: number, groupId: string, caption?: string, chat = group): Message {
  const update = photoUpdate({
    chat,
    from: somchai,
    messageId,
    media_group_id: groupId,
    sizes: photoSizes(`AgAC${messageId}`),
    ...(caption === undefined ? {} : { caption }),
  });
  return update.message;
}

function normalized(message: Message): InboundMessage {
  const result = normalizeTelegramMessage(message, bot, { maxImageBytes: 10_000_000 });
  if (!result) throw new Error('expected a message');
  return result;
}

function collector(scheduler: ManualScheduler): { albums: AlbumCollector; emitted: InboundMessage[] } {
  const emitted: InboundMessage[] = [];
  const albums = new AlbumCollector({ scheduler, quietMs: 800, emit: (message) => emitted.push(message) });
  return { albums, emitted };
}

function add(albums: AlbumCollector, message: Message): void {
  albums.add(normalized(message), mediaGroupOf(message));
}

describe('mergeAlbum', () => {
  it('folds members into one message: first ids, the one caption, every image in message order', () => {
    const members = [albumMember(12, 'g1'), albumMember(11, 'g1'), albumMember(13, 'g1', '@saeng_test_bot สามรูปนี้ต่างกันอย่างไร')].map(normalized);
    const merged = mergeAlbum(members);
    expect(merged).toMatchObject({ messageId: '-1001234567890:11', text: 'สามรูปนี้ต่างกันอย่างไร', mentionsBot: true });
    expect(merged.attachments.map((attachment) => attachment.reference)).toEqual([
      { kind: 'platform-file', id: 'AgAC11_3' },
      { kind: 'platform-file', id: 'AgAC12_3' },
      { kind: 'platform-file', id: 'AgAC13_3' },
    ]);
  });
});

describe('AlbumCollector', () => {
  it('closes an album when the next message of the chat is not part of it, keeping the chat’s order', () => {
    const scheduler = new ManualScheduler();
    const { albums, emitted } = collector(scheduler);
    add(albums, albumMember(21, 'g2', '@saeng_test_bot ดูรูป'));
    add(albums, albumMember(22, 'g2'));
    expect(emitted).toEqual([]);
    add(albums, textMessageUpdate({ chat: group, from: somchai, messageId: 23, text: '@saeng_test_bot แล้วอันนี้' }).message);
    expect(emitted.map((message) => [message.messageId, message.attachments.length, message.text])).toEqual([
      ['-1001234567890:21', 2, 'ดูรูป'],
      ['-1001234567890:23', 0, 'แล้วอันนี้'],
    ]);
    expect(albums.pendingCount()).toBe(0);
  });

  it('closes the last album of a chat after the quiet period, restarted by every member', () => {
    const scheduler = new ManualScheduler();
    const { albums, emitted } = collector(scheduler);
    add(albums, albumMember(31, 'g3'));
    scheduler.advance(700);
    add(albums, albumMember(32, 'g3', 'สองรูป @saeng_test_bot'));
    scheduler.advance(700);
    expect(emitted).toEqual([]);
    scheduler.advance(100);
    expect(emitted).toHaveLength(1);
    expect(emitted[0]?.attachments).toHaveLength(2);
    expect(scheduler.pending()).toBe(0);
  });

  it('one album right after another closes the first; other chats do not wait for each other', () => {
    const scheduler = new ManualScheduler();
    const { albums, emitted } = collector(scheduler);
    add(albums, albumMember(41, 'g4'));
    add(albums, albumMember(5, 'x1', undefined, otherGroup));
    add(albums, albumMember(42, 'g5'));
    expect(emitted.map((message) => message.messageId)).toEqual(['-1001234567890:41']);
    albums.flush();
    expect(emitted.map((message) => message.messageId).sort()).toEqual(['-1001234567890:41', '-1001234567890:42', '-1002222222222:5']);
  });

  it('passes a message outside any album straight through', () => {
    const scheduler = new ManualScheduler();
    const { albums, emitted } = collector(scheduler);
    add(albums, textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot สวัสดี' }).message);
    expect(emitted).toHaveLength(1);
    expect(scheduler.pending()).toBe(0);
  });
});
