import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { createPlatformAdapters } from '../../../src/platforms.js';
import type { PlatformAdapter } from '../../../src/shared/channel.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { Attachment, InboundMessage } from '../../../src/shared/types.js';
import { groupChat, startFakeTelegram, textMessageUpdate, user, type FakeTelegram } from '../../fakes/telegram/index.js';
import { testInboundHandler } from '../../support/inbound-handler.js';

import { recordingJournal } from '../../support/recording-journal.js';
// The adapter's answering side on its own, through real telegraf against the fake: a stored message answered
// from the message alone (text parts, then files as documents, each journaled; parts already sent skipped),
// /research progress as one edited message, and downloads capped without the token in any error.

const somchai = user(501, 'สมชาย', 'somchai');
const group = groupChat(-1001234567890, 'ทีมแสง');

let telegram: FakeTelegram | undefined;
let adapter: PlatformAdapter | undefined;
let folder: string | undefined;
afterEach(async () => {
  await adapter?.stop();
  await telegram?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
  adapter = undefined;
  telegram = undefined;
  folder = undefined;
});

async function started(): Promise<{ telegram: FakeTelegram; adapter: PlatformAdapter }> {
  telegram = await startFakeTelegram({ chats: [group] });
  const config = loadConfig({ TELEGRAM_BOT_TOKEN: telegram.token, TELEGRAM_API_ROOT: telegram.url });
  [adapter] = createPlatformAdapters(config, silentLogger());
  if (!adapter) throw new Error('no adapter');
  await adapter.start(testInboundHandler());
  return { telegram, adapter };
}

function storedQuestion(telegram: FakeTelegram): InboundMessage {
  const update = { ...textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot ขอไฟล์' }), update_id: 1 };
  telegram.rememberUpdate(update);
  return {
    platform: 'telegram',
    conversationKey: `telegram:${group.id}`,
    spaceKey: `telegram:${group.id}`,
    messageId: `${group.id}:${update.message.message_id}`,
    chatKind: 'group',
    sender: { id: String(somchai.id), name: 'สมชาย', isPlatformAdmin: false },
    text: 'ขอไฟล์',
    mentionsBot: true,
    repliesToBot: false,
    attachments: [],
    receivedAt: new Date(0),
  };
}

describe('Telegram responder', () => {
  it('sends the text parts, then the files as documents replying to the question, journaling every part', async () => {
    const { telegram, adapter } = await started();
    folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-telegram-'));
    const report = path.join(folder, 'report.csv');
    writeFileSync(report, 'สินค้า,ราคา\nกาแฟ,50\n');
    const question = storedQuestion(telegram);
    const marks = recordingJournal();
    await adapter.responderFor(question).send({ text: 'นี่คือไฟล์ครับ', files: [{ name: 'report.csv', path: report, mime: 'text/csv', size: 30 }] }, marks);
    expect(marks.marks).toEqual(['sending 0', 'sent 0', 'sending 1', 'sent 1']);
    const [text, document] = telegram.sentMessages(group.id);
    const questionId = Number(question.messageId.split(':')[1]);
    expect(text).toMatchObject({ text: 'นี่คือไฟล์ครับ', reply_to_message: { message_id: questionId } });
    expect(document).toMatchObject({ document: { file_name: 'report.csv' }, reply_to_message: { message_id: questionId } });
  });

  it('a reply past five messages: four parts, the note, then the rest as answer-rest.txt (a model that never stopped)', async () => {
    const { telegram, adapter } = await started();
    const marks = recordingJournal();
    const text = Array.from({ length: 2_000 }, (_, index) => `บรรทัดที่ ${index} ของคำตอบที่ไม่ยอมหยุด`).join('\n');
    await adapter.responderFor(storedQuestion(telegram)).send({ text, files: [] }, marks);
    const sent = telegram.sentMessages(group.id);
    expect(sent).toHaveLength(6);
    expect('text' in sent[4]! ? sent[4].text : '').toContain('ส่วนที่เหลืออยู่ในไฟล์ answer-rest.txt ที่แนบมา');
    expect(sent[5]).toMatchObject({ document: { file_name: 'answer-rest.txt' } });
    expect(marks.marks.at(-1)).toBe('sent 5');
  });

  it('skips the parts a journal already has as sent (a reply resumed after a restart)', async () => {
    const { telegram, adapter } = await started();
    const marks = recordingJournal({ alreadySent: [0] });
    await adapter.responderFor(storedQuestion(telegram)).send({ text: `${'ก'.repeat(4000)}\n\n${'ข'.repeat(100)}`, files: [] }, marks);
    expect(marks.marks).toEqual(['sending 1', 'sent 1']);
    expect(telegram.sentMessages(group.id).map((message) => ('text' in message ? message.text : ''))).toEqual(['ข'.repeat(100)]);
  });

  it('shows progress as one status message, edited in place', async () => {
    const { telegram, adapter } = await started();
    const responder = adapter.responderFor(storedQuestion(telegram));
    await responder.progress?.({ source: 'research', text: 'ค้นรอบที่หนึ่ง' });
    await responder.progress?.({ source: 'research', text: 'ค้นรอบที่สอง' });
    expect(telegram.callsOf('sendMessage')).toHaveLength(1);
    expect(telegram.callsOf('editMessageText')).toHaveLength(1);
    expect(telegram.sentMessages(group.id).map((message) => ('text' in message ? message.text : ''))).toEqual(['ค้นรอบที่สอง']);
  });
});

describe('Telegram download', () => {
  const file = (id: string, size: number): Attachment => ({
    kind: 'file',
    mime: 'text/plain',
    name: 'notes.txt',
    size,
    reference: { kind: 'platform-file', id },
  });

  it('reads a file within the cap, and refuses one over it before or while downloading, never naming the token', async () => {
    const { telegram, adapter } = await started();
    telegram.addFile('small', Buffer.from('สวัสดี'));
    expect(Buffer.from(await adapter.download(file('small', 18), 100)).toString('utf8')).toBe('สวัสดี');
    // Declared too large: no download at all.
    await expect(adapter.download(file('small', 5000), 100)).rejects.toThrow('larger than 100 bytes');
    // getFile claims it is small, the bytes are not: the read stops at the cap.
    telegram.addFile('liar', Buffer.alloc(5000, 1), { size: 10 });
    const error: unknown = await adapter.download(file('liar', 10), 100).catch((thrown: unknown) => thrown);
    expect(String(error)).toContain('larger than 100 bytes');
    const missing: unknown = await adapter.download(file('nope', 10), 100).catch((thrown: unknown) => thrown);
    for (const failure of [error, missing]) expect(String(failure)).not.toContain(telegram.token);
    expect(String(missing)).toContain('wrong file_id');
  });
});
