import { Telegraf } from 'telegraf';
import type { Message, Update, User } from 'telegraf/types';
import { describe, expect, it } from 'vitest';
import { mediaGroupOf, normalizeTelegramMessage } from '../../../adapters/telegram/inbound.js';
import {
  documentUpdate,
  groupChat,
  photoSizes,
  photoUpdate,
  privateChat,
  startFakeTelegram,
  textMessageUpdate,
  user,
  type NewUpdate,
} from '../../fakes/telegram/index.js';

// Photos and documents as attachment references, and one update through real telegraf's context.

const bot = { id: 7_123_456_789, username: 'saeng_test_bot' };
const somchai: User = user(501, 'สมชาย', 'somchai');
const group = groupChat(-1001234567890, 'ทีมแสง');
const options = { maxImageBytes: 50_000 };
const someoneMessage = textMessageUpdate({ chat: group, from: user(502, 'สมหญิง'), text: 'ข้อความอื่น' }).message;

function messageOf(update: NewUpdate): Message {
  return update.message;
}

function normalize(message: Message) {
  return normalizeTelegramMessage(message, bot, options);
}

describe('normalizeTelegramMessage: attachments', () => {
  it('takes the largest photo size under the cap', () => {
    const sizes = photoSizes('AgACphoto', { width: 1280, height: 960, file_size: 120_000 });
    const fitting = sizes.filter((size) => (size.file_size ?? Infinity) <= options.maxImageBytes).at(-1);
    expect(fitting).not.toBe(sizes.at(-1));
    const normalized = normalize(messageOf(photoUpdate({ chat: privateChat(somchai), from: somchai, sizes })));
    expect(normalized?.attachments).toEqual([
      {
        kind: 'image',
        mime: 'image/jpeg',
        name: `photo-${fitting?.file_unique_id}.jpg`,
        size: fitting?.file_size,
        reference: { kind: 'platform-file', id: fitting?.file_id },
      },
    ]);
    expect(normalized?.text).toBe('');
  });

  it('skips sizes without file_size while a declared one fits, and takes one when none is declared', () => {
    const sizes = photoSizes('AgACmixed');
    const undeclared = sizes.map(({ file_size: _size, ...rest }) => rest);
    const mixed = [undeclared[0], ...sizes.slice(1, 2), ...undeclared.slice(2)].filter((size) => size !== undefined);
    expect(normalize(messageOf(photoUpdate({ chat: group, from: somchai, sizes: mixed, caption: '@saeng_test_bot' })))?.attachments[0]?.reference).toEqual({
      kind: 'platform-file',
      id: 'AgACmixed_1',
    });
    const none = normalize(messageOf(photoUpdate({ chat: group, from: somchai, sizes: undeclared, caption: '@saeng_test_bot' })))?.attachments[0];
    expect(none).toMatchObject({ size: 0, reference: { id: 'AgACmixed_0' } });
  });

  it('documents are files, or images when their mime type says so', () => {
    const pdf = normalize(
      messageOf(documentUpdate({ chat: group, from: somchai, fileName: 'รายงาน.pdf', mimeType: 'application/pdf', fileId: 'BQpdf', fileSize: 2048 })),
    );
    expect(pdf?.attachments).toEqual([
      { kind: 'file', mime: 'application/pdf', name: 'รายงาน.pdf', size: 2048, reference: { kind: 'platform-file', id: 'BQpdf' } },
    ]);
    const png = normalize(messageOf(documentUpdate({ chat: group, from: somchai, fileName: 'scan.png', mimeType: 'image/png' })));
    expect(png?.attachments[0]).toMatchObject({ kind: 'image', mime: 'image/png', name: 'scan.png' });
  });

  it('reads the album id of a media-group member', () => {
    expect(mediaGroupOf(messageOf(photoUpdate({ chat: group, from: somchai, media_group_id: '1399' })))).toBe('1399');
    expect(mediaGroupOf(someoneMessage)).toBeUndefined();
  });
});

describe('normalizeTelegramMessage under real telegraf', () => {
  it('normalizes ctx.message of an update telegraf handled, with ctx.botInfo from the fake’s getMe', async () => {
    const fake = await startFakeTelegram({ chats: [group] });
    try {
      const telegraf = new Telegraf(fake.token, { telegram: { apiRoot: fake.url } });
      const seen: unknown[] = [];
      telegraf.on('message', (context) => {
        seen.push(normalizeTelegramMessage(context.message, { id: context.botInfo.id, username: context.botInfo.username }, options));
      });
      const update = { ...photoUpdate({ chat: group, from: somchai, caption: 'ดูหน่อย @saeng_test_bot' }), update_id: 1 } as Update;
      fake.rememberUpdate(update);
      await telegraf.handleUpdate(update);
      expect(seen).toEqual([expect.objectContaining({ text: 'ดูหน่อย', mentionsBot: true, attachments: [expect.objectContaining({ kind: 'image' })] })]);
    } finally {
      await fake.close();
    }
  });
});
