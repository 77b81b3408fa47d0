import { afterEach, describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../src/commands/command.js';
import { createKnowledgeCommand } from '../../../src/commands/kb.js';
import { shouldReport } from '../../../src/commands/kb/ocr-progress.js';
import { parseCommand } from '../../../src/commands/parse.js';
import { openKnowledgeStore, type KnowledgeStore } from '../../../src/knowledge/index.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { Attachment, ProgressEvent } from '../../../src/shared/types.js';
import { countingOcr } from '../../support/knowledge/counting-ocr.js';
import { makePagesPdf } from '../../support/knowledge/documents.js';
import { renderTextImage } from '../../support/text-images.js';

const now = new Date('2026-03-01T09:00:00Z');
const stores: KnowledgeStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function runAdd(store: KnowledgeStore, file: { name: string; bytes: Uint8Array }, language: 'th' | 'en') {
  const created = await store.createKnowledgeBase({ name: 'manual', description: '', spaceKey: 'discord:guild-1', createdBy: 'discord:admin', now });
  if (!created.ok) throw new Error(created.reason);
  const attachment: Attachment = {
    kind: 'file',
    mime: 'application/pdf',
    name: file.name,
    size: file.bytes.length,
    reference: { kind: 'url', url: 'https://cdn.example.com/scan.pdf' },
  };
  const progress: ProgressEvent[] = [];
  const context: CommandContext = {
    message: {
      platform: 'discord',
      conversationKey: 'discord:chan-1',
      spaceKey: 'discord:guild-1',
      messageId: 'm1',
      chatKind: 'group',
      sender: { id: 'admin', name: 'admin', isPlatformAdmin: true },
      text: '',
      mentionsBot: true,
      repliesToBot: false,
      attachments: [attachment],
      receivedAt: now,
    },
    language,
    isGlobalAdmin: false,
    log: silentLogger(),
    now: () => now,
    progress: (event) => progress.push(event),
    download: async () => file.bytes,
  };
  const parsed = parseCommand('/kb add manual');
  if (parsed.kind !== 'command') throw new Error('not a command');
  const reply = await createKnowledgeCommand(store, { maxAttachmentBytes: 1024 * 1024 }).run(parsed.command, context);
  return { reply: reply.text, progress };
}

describe('/kb add with a scanned PDF', () => {
  it('tells the chat which page it is reading, then reports the document added', async () => {
    const store = openKnowledgeStore({ path: ':memory:', log: silentLogger(), ocr: countingOcr() });
    stores.push(store);
    const pages = [await renderTextImage({ text: 'ระเบียบการลาพักร้อน' }), await renderTextImage({ text: 'ลาป่วยได้สามสิบวันต่อปี' })];
    const { reply, progress } = await runAdd(store, { name: 'scan.pdf', bytes: await makePagesPdf(pages) }, 'th');
    expect(progress).toEqual([
      { source: 'kb_add', text: '📄 “scan.pdf”: กำลังอ่านหน้า 1/2' },
      { source: 'kb_add', text: '📄 “scan.pdf”: กำลังอ่านหน้า 2/2' },
    ]);
    expect(reply).toMatch(/✅ “scan\.pdf” เพิ่มแล้ว \(#\d+, 2 ส่วน\)/);
  });

  it('without OCR, a mixed PDF is added with its text pages and names the pages it could not read', async () => {
    const store = openKnowledgeStore({ path: ':memory:', log: silentLogger() });
    stores.push(store);
    const pdf = await makePagesPdf([['Leave policy: 10 days a year.'], await renderTextImage({ text: 'ลาป่วย' })]);
    const { reply, progress } = await runAdd(store, { name: 'mixed.pdf', bytes: pdf }, 'en');
    expect(progress).toEqual([]);
    expect(reply).toMatch(/✅ “mixed\.pdf” added \(#\d+, 1 passages\) — page 2 was not read \(no text layer, and this server has no OCR\)/);
  });
});

describe('progress throttle', () => {
  const reported = (toRead: number) =>
    Array.from({ length: toRead }, (_, done) => done).filter((done) => shouldReport({ page: done + 1, pages: toRead, done, toRead }));

  it('every page up to ten pages, then about every tenth of them', () => {
    expect(reported(10)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(reported(100)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(reported(25)).toEqual([0, 3, 5, 8, 10, 13, 15, 18, 20, 23]);
  });
});
