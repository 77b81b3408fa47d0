import type { webhook } from '@line/bot-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeLineEvents } from '../../../adapters/line/inbound.js';
import { parseInboundMessage } from '../../../src/shared/inbound-message-schema.js';
import { groupSource, lineGroupId, lineUserId, startFakeLine, userSource, type FakeLine } from '../../fakes/line/index.js';

// Normalization of the message events the fake builds as LINE sends them: audio, video and stickers are marked
// `unreadable` (a sticker quoting the bot's message addresses it in a group); text, images and files are not.

const somchai = lineUserId('somchai');
const group = lineGroupId('team');
const botMessageId = '600000000000000001';
const options = {
  isBotMessage: (id: string) => Promise.resolve(id === botMessageId),
  quotedMessage: () => Promise.resolve({ state: 'unknown' as const }),
  replyWindowMs: 50_000,
};

let line: FakeLine;
beforeAll(async () => {
  line = await startFakeLine();
});
afterAll(async () => {
  await line.close();
});

async function normalizeOne(event: webhook.Event) {
  const [message, ...rest] = await normalizeLineEvents([event], options);
  expect(rest).toEqual([]);
  return message;
}

describe('LINE normalization of what the bot cannot read', () => {
  it.each([
    ['sticker', () => line.stickerEvent({ source: userSource(somchai) })],
    ['audio', () => line.audioEvent({ source: userSource(somchai) })],
    ['video', () => line.videoEvent({ source: userSource(somchai) })],
  ] as const)('marks a %s in a 1:1 chat, with no text or attachments, kept through the stored schema', async (kind, build) => {
    const message = await normalizeOne(build());
    expect(message).toMatchObject({ chatKind: 'direct', text: '', attachments: [], unreadable: kind, mentionsBot: false, repliesToBot: false });
    expect(parseInboundMessage(JSON.parse(JSON.stringify(message)))?.unreadable).toBe(kind);
  });

  it('takes a sticker that quotes the bot in a group as a reply to the bot, and one that quotes someone else as not', async () => {
    const source = groupSource(group, somchai);
    expect(await normalizeOne(line.stickerEvent({ source, quotedMessageId: botMessageId }))).toMatchObject({ unreadable: 'sticker', repliesToBot: true });
    expect(await normalizeOne(line.stickerEvent({ source, quotedMessageId: '600000000000000999' }))).toMatchObject({ repliesToBot: false });
    expect(await normalizeOne(line.stickerEvent({ source }))).toMatchObject({ chatKind: 'group', repliesToBot: false });
  });

  it('leaves text, images and files alone', async () => {
    const source = userSource(somchai);
    const events = [
      line.textEvent({ source, text: 'สวัสดี' }),
      line.imageEvent({ source, content: { bytes: Buffer.from('x') } }),
      line.fileEvent({ source, fileName: 'คู่มือ.pdf', bytes: Buffer.from('%PDF-1.4') }),
    ];
    const messages = await normalizeLineEvents(events, options);
    expect(messages.map((message) => message.attachments.map((attachment) => attachment.kind))).toEqual([[], ['image'], ['file']]);
    expect(messages.map((message) => message.unreadable)).toEqual([undefined, undefined, undefined]);
  });
});
