import { afterEach, describe, expect, it } from 'vitest';
import { githubToken } from '../../support/fake-tokens.js';
import type { Message } from 'telegraf/types';
import { newestUserContent } from '../../fakes/recorded-messages.js';
import { documentUpdate, groupChat, photoSizes, photoUpdate, textMessageUpdate, user } from '../../fakes/telegram/index.js';
import { shadePng, shownShades } from '../../support/shade-images.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';

// A checksum-valid GitHub token, as GitHub issues them (the scanner checks the CRC32).
const token = githubToken('ghp', 12);

// "@แสง แปลข้อความนี้หน่อย" in reply to someone else's message: the replied message (its text, photo, document)
// reaches the model as quoted material after the question, through the real telegraf adapter and app.

const somchai = user(501, 'สมชาย', 'somchai');
const somsri = user(502, 'สมศรี', 'somsri');
const group = groupChat(-1001234567890, 'ทีมแสง');

let harness: TelegramHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const messageOf = (update: { message?: unknown }) => update.message as Message;

describe('Telegram: the message a question replies to', () => {
  it('puts a replied text after the question, labelled with its author, and keeps the question the user’s own', async () => {
    harness = await startTelegramHarness();
    const english = messageOf(textMessageUpdate({ chat: group, from: somsri, text: 'The meeting is moved to 2 pm tomorrow, room 4B.' }));
    harness.model.script({ text: 'ประชุมเลื่อนไปบ่ายสองพรุ่งนี้ ที่ห้อง 4B ครับ' });
    await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot แปลข้อความนี้หน่อย', replyTo: english }));
    const content = JSON.stringify(newestUserContent(harness.model.chatRequests[0]));
    expect(content).toContain('แปลข้อความนี้หน่อย');
    expect(content).toContain('ข้อความที่ผู้ใช้ตอบกลับ (ของ สมศรี)');
    expect(content).toContain('The meeting is moved to 2 pm tomorrow, room 4B.');
    expect(content.indexOf('แปลข้อความนี้หน่อย')).toBeLessThan(content.indexOf('The meeting'));
    // A Thai question: answered in Thai, not retried into English because the quote is English.
    expect(harness.model.chatRequests).toHaveLength(1);
    expect(harness.sentTexts(group.id)).toEqual(['ประชุมเลื่อนไปบ่ายสองพรุ่งนี้ ที่ห้อง 4B ครับ']);
  });

  it('reads a replied photo like the question’s own, and a replied text document up to a bound', async () => {
    harness = await startTelegramHarness({ environment: { MODEL_VISION: 'on' } });
    const sizes = photoSizes('AgACAgUAAxkBAAIquoted');
    harness.telegram.addFile(sizes.at(-1)?.file_id ?? '', await shadePng(120));
    const photo = messageOf(photoUpdate({ chat: group, from: somsri, sizes, caption: 'ป้ายหน้าร้าน' }));
    harness.model.script({ text: 'เป็นป้ายสีเทาครับ' });
    await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot รูปนี้คืออะไร', replyTo: photo }));
    expect(await shownShades(harness.model.chatRequests[0])).toEqual([120]);
    expect(JSON.stringify(newestUserContent(harness.model.chatRequests[0]))).toContain('ป้ายหน้าร้าน');

    harness.telegram.addFile('BQACAgUAAxkBAAIminutes', Buffer.from('วาระการประชุม\n1. งบประมาณไตรมาสสี่\n2. ทริปบริษัท\n'));
    const document = messageOf(documentUpdate({ chat: group, from: somsri, fileName: 'agenda.txt', mimeType: 'text/plain', fileId: 'BQACAgUAAxkBAAIminutes' }));
    harness.model.script({ text: 'มีสองวาระครับ งบประมาณกับทริปบริษัท' });
    await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot สรุปให้ที', replyTo: document }));
    const content = JSON.stringify(newestUserContent(harness.model.chatRequests[1]));
    expect(content).toContain('ไฟล์ agenda.txt ในข้อความนั้น');
    expect(content).toContain('งบประมาณไตรมาสสี่');
  });

  it('answers a mention alone in reply to a message about that message, its credentials masked', async () => {
    harness = await startTelegramHarness();
    const leaked = messageOf(textMessageUpdate({ chat: group, from: somsri, text: `ใช้คีย์นี้นะ ${token}` }));
    harness.model.script({ text: 'ข้อความนั้นบอกให้ใช้คีย์ชุดหนึ่ง ซึ่งไม่ควรแชร์ในกลุ่มครับ' });
    await harness.deliver(textMessageUpdate({ chat: group, from: somchai, text: '@saeng_test_bot', replyTo: leaked }));
    const content = JSON.stringify(newestUserContent(harness.model.chatRequests[0]));
    expect(content).toContain('ช่วยอธิบายข้อความที่อ้างถึงนี้ให้หน่อย');
    expect(content).not.toContain(token);
    expect(content).toContain('[redacted:');
  });
});
