import { describe, expect, it } from 'vitest';
import { parseInboundMessage } from '../../../src/shared/inbound-message-schema.js';
import type { InboundMessage } from '../../../src/shared/types.js';

// A stored message (the durable queue) is JSON; it must come back as the same message, Date included.

const message = {
  platform: 'line',
  conversationKey: 'line:C123',
  spaceKey: 'line:C123',
  messageId: 'm-1',
  chatKind: 'group',
  sender: { id: 'U9', name: 'สมชาย', isPlatformAdmin: false },
  text: 'ช่วยสรุปไฟล์นี้ให้หน่อย',
  mentionsBot: true,
  repliesToBot: false,
  attachments: [
    { kind: 'file', mime: 'application/pdf', name: 'report.pdf', size: 2048, reference: { kind: 'message', id: '5001' } },
    { kind: 'image', mime: 'image/jpeg', name: 'photo.jpg', size: 10, reference: { kind: 'platform-file', id: 'AgACAgQ' } },
    { kind: 'image', mime: 'image/png', name: 'a.png', size: 3, reference: { kind: 'url', url: 'https://cdn.discordapp.com/attachments/1/2/a.png?ex=1' } },
    { kind: 'file', mime: 'text/plain', name: 'notes.txt', size: 4, reference: { kind: 'path', path: '/tmp/notes.txt' } },
  ],
  receivedAt: new Date('2026-03-05T03:00:00.123Z'),
  replyToken: { value: 'nHBkY2xJbnRlcmFjdGlvblRva2Vu', expiresAt: new Date('2026-03-05T03:15:00.000Z') },
  quoted: {
    state: 'known',
    author: 'สมหญิง',
    byBot: false,
    text: 'ประชุมพรุ่งนี้เลื่อนเป็นบ่ายสอง',
    attachments: [{ kind: 'image', mime: 'image/jpeg', name: 'board.jpg', size: 10, reference: { kind: 'message', id: '5000' } }],
    sentAt: new Date('2026-03-05T02:58:00.000Z'),
  },
  unreadable: 'sticker',
} satisfies Required<InboundMessage>;

describe('parseInboundMessage', () => {
  it('round-trips a message through JSON', () => {
    const stored = JSON.stringify(message);
    const back = parseInboundMessage(JSON.parse(stored));
    expect(back).toEqual(message);
    expect(back.receivedAt).toBeInstanceOf(Date);
    expect(JSON.stringify(back)).toBe(stored);
  });

  it('accepts a message that was never serialized', () => {
    expect(parseInboundMessage(message)).toEqual(message);
  });

  it.each([
    ['an unknown platform', { ...message, platform: 'slack' }],
    ['a date that is not one', { ...message, receivedAt: 'yesterday' }],
    ['an attachment without a reference', { ...message, attachments: [{ kind: 'file', mime: 'text/plain', name: 'x', size: 1 }] }],
    ['a quote of unknown state', { ...message, quoted: { state: 'maybe' } }],
    ['a quoted text over the bound', { ...message, quoted: { ...message.quoted, text: 'ก'.repeat(4_001) } }],
    ['an unreadable kind that is none', { ...message, unreadable: 'poll' }],
    ['an unknown reference kind', { ...message, attachments: [{ ...message.attachments[0], reference: { kind: 'ftp', id: 'x' } }] }],
  ])('refuses %s', (_name, stored) => {
    expect(() => parseInboundMessage(JSON.parse(JSON.stringify(stored)))).toThrow();
  });
});
