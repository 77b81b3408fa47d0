import { describe, expect, it } from 'vitest';
import { githubToken } from '../../support/fake-tokens.js';
import { quotedContextOf } from '../../../src/pipeline/quoted-context.js';
import type { Attachment, InboundMessage, QuotedMessage } from '../../../src/shared/types.js';

// A checksum-valid GitHub token, as GitHub issues them (the scanner checks the CRC32).
const token = githubToken('ghp', 11);

const pdf: Attachment = { kind: 'file', mime: 'application/pdf', name: 'report.pdf', size: 10, reference: { kind: 'message', id: '1' } };
const photo: Attachment = { kind: 'image', mime: 'image/jpeg', name: 'a.jpg', size: 10, reference: { kind: 'message', id: '2' } };

function asking(quoted: QuotedMessage | undefined): InboundMessage {
  return {
    platform: 'line',
    conversationKey: 'line:C1',
    spaceKey: 'line:C1',
    messageId: 'm1',
    chatKind: 'group',
    sender: { id: 'U1', name: 'สมชาย', isPlatformAdmin: false },
    text: 'สรุปให้ที',
    mentionsBot: true,
    repliesToBot: false,
    attachments: [],
    receivedAt: new Date(),
    ...(quoted ? { quoted } : {}),
  };
}

const known = (fields: Partial<Extract<QuotedMessage, { state: 'known' }>>): QuotedMessage => ({
  state: 'known',
  author: 'สมศรี',
  byBot: false,
  text: '',
  attachments: [],
  ...fields,
});

describe('quotedContextOf', () => {
  it('gives nothing for a message that quotes nothing', async () => {
    expect(await quotedContextOf(asking(undefined), { language: 'th' })).toEqual({ images: [] });
  });

  it('says in front of the answer that a quote it cannot see is unknown, and tells the model not to guess', async () => {
    const context = await quotedContextOf(asking({ state: 'unknown' }), { language: 'th' });
    expect(context.lead).toContain('ไม่เห็นข้อความที่คุณตอบกลับ');
    expect(context.block).toContain('อย่าเดา');
  });

  it('labels the bot’s own answer, keeps its fence unbroken, and hands images on', async () => {
    const context = await quotedContextOf(asking(known({ byBot: true, text: 'ตอบว่า """ ปิดท้าย', attachments: [photo] })), { language: 'en' });
    expect(context.block).toContain('The bot’s earlier answer the user replied to:');
    expect(context.block?.match(/"""/g)).toHaveLength(2);
    expect(context.images).toEqual([photo]);
  });

  it('reads a document up to the bound, and names one it cannot read', async () => {
    const read = await quotedContextOf(asking(known({ attachments: [pdf] })), { language: 'th', documentText: async () => 'ก'.repeat(10_000) });
    expect(read.block).toContain('ตัดมา 3000 ตัวอักษรแรก');
    const unread = await quotedContextOf(asking(known({ attachments: [pdf] })), {
      language: 'th',
      documentText: async () => {
        throw new Error('not a PDF');
      },
    });
    expect(unread.block).toContain('อ่านเนื้อหาไม่ได้');
  });

  it('masks a credential in the quoted text and says so', async () => {
    const context = await quotedContextOf(asking(known({ text: `ใช้ ${token} เข้า repo` })), { language: 'th' });
    expect(context.block).not.toContain(token);
    expect(context.block).toContain('ตัดข้อมูลลับออก');
  });
});
