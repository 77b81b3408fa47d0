import { Client, Message, MessageFlags, MessageType, StickerFormatType, type APIAttachment, type APIMessage } from 'discord.js';
import { afterAll, describe, expect, it } from 'vitest';
import { normalizeDiscordMessage } from '../../../adapters/discord/inbound.js';
import { parseInboundMessage } from '../../../src/shared/inbound-message-schema.js';

// Normalization of DM payloads as the gateway sends them, through discord.js's own Message: voice messages (the
// IsVoiceMessage flag), audio and video attachments and stickers are marked `unreadable` and kept out of the
// attachments; text, images and documents are not marked.

const botUserId = '1100000000000000001';
const client = new Client({ intents: [] });
afterAll(async () => {
  await client.destroy();
});

let nextId = 1200000000000000000n;
const id = () => String((nextId += 1n));

function attachment(filename: string, contentType: string, extra: Partial<APIAttachment> = {}): APIAttachment {
  const attachmentId = id();
  const url = `https://cdn.discordapp.com/attachments/1/${attachmentId}/${filename}`;
  return { id: attachmentId, filename, size: 9_000, url, proxy_url: url, content_type: contentType, ...extra };
}

function normalize(fields: Partial<APIMessage>) {
  const data: APIMessage = {
    id: id(),
    channel_id: '1300000000000000001',
    author: { id: '1400000000000000001', username: 'somchai', global_name: 'สมชาย', discriminator: '0', avatar: null },
    content: '',
    timestamp: '2026-12-01T03:00:00.000Z',
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    pinned: false,
    type: MessageType.Default,
    ...fields,
  };
  // The constructor is private in the typings; the gateway handler calls it the same way.
  const message = Reflect.construct(Message, [client, data]) as Message;
  const normalized = normalizeDiscordMessage(message, botUserId);
  if (!normalized) throw new Error('expected a message');
  return normalized;
}

const voice = attachment('voice-message.ogg', 'audio/ogg', { duration_secs: 3.2, waveform: 'AAAA' });

describe('Discord normalization of what the bot cannot read', () => {
  it.each<[string, Partial<APIMessage>, string]>([
    ['a voice message', { attachments: [voice], flags: MessageFlags.IsVoiceMessage }, 'voice'],
    ['an audio file', { attachments: [attachment('song.mp3', 'audio/mpeg')] }, 'audio'],
    ['a video', { attachments: [attachment('clip.mp4', 'video/mp4')] }, 'video'],
    ['a sticker', { sticker_items: [{ id: id(), name: 'wave', format_type: StickerFormatType.PNG }] }, 'sticker'],
  ])('marks %s as %s, with no attachment left, kept through the stored schema', (_name, fields, unreadable) => {
    const message = normalize(fields);
    expect(message).toMatchObject({ chatKind: 'direct', text: '', attachments: [], unreadable });
    expect(parseInboundMessage(JSON.parse(JSON.stringify(message)))?.unreadable).toBe(unreadable);
  });

  it('keeps the words sent with a sticker as the question', () => {
    const sticker = { id: id(), name: 'wave', format_type: StickerFormatType.PNG };
    expect(normalize({ content: `<@${botUserId}> สวัสดีครับ`, sticker_items: [sticker] })).toMatchObject({ text: 'สวัสดีครับ', unreadable: 'sticker' });
  });

  it('leaves text, images and documents alone, and a video sent with them is only left out', () => {
    const messages = [
      normalize({ content: 'สวัสดี' }),
      normalize({ attachments: [attachment('photo.png', 'image/png')] }),
      normalize({ attachments: [attachment('manual.pdf', 'application/pdf'), attachment('clip.mp4', 'video/mp4')] }),
    ];
    expect(messages.map((message) => message.attachments.map((each) => each.name))).toEqual([[], ['photo.png'], ['manual.pdf']]);
    expect(messages.map((message) => 'unreadable' in message)).toEqual([false, false, false]);
  });
});
