import { afterEach, describe, expect, it } from 'vitest';
import { messagesOf } from '../../fakes/recorded-messages.js';
import { documentUpdate, groupChat, photoSizes, photoUpdate, textMessageUpdate, user } from '../../fakes/telegram/index.js';
import { shadePng, shownShades } from '../../support/shade-images.js';
import { startTelegramHarness, type TelegramHarness } from './telegram-harness.js';

// Files through the real adapter: a photo whose caption mentions the bot reaches a vision model as an image
// (getFile, then the file URL), and `/kb add` as a document's caption is an administrator's command only
// (getChatMember decides).

const admin = user(601, 'มานี', 'manee');
const member = user(602, 'ปิติ', 'piti');
const group = groupChat(-1001234567890, 'ทีมแสง');

let harness: TelegramHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('Telegram attachments end to end', () => {
  it('gives a vision model the photo of a caption that mentions the bot', async () => {
    harness = await startTelegramHarness({ environment: { MODEL_VISION: 'on' } });
    const sizes = photoSizes('AgACAgUAAxkBAAIphoto');
    const largest = sizes.at(-1);
    if (!largest) throw new Error('no photo sizes');
    harness.telegram.addFile(largest.file_id, await shadePng(80));
    harness.model.script({ text: 'เป็นรูปแมวครับ' });
    await harness.deliver(photoUpdate({ chat: group, from: member, sizes, caption: '@saeng_test_bot รูปนี้คืออะไร' }));
    const question = messagesOf(harness.model.chatRequests[0])
      .filter((message) => message.role === 'user')
      .at(-1);
    const content = JSON.stringify(question?.content);
    expect(await shownShades(harness.model.chatRequests[0])).toEqual([80]);
    expect(content).toContain('รูปนี้คืออะไร');
    expect(content).not.toContain('@saeng_test_bot');
    expect(harness.telegram.callsOf('getFile').map((call) => call.params.file_id)).toEqual([largest.file_id]);
    expect(harness.sentTexts(group.id)).toEqual(['เป็นรูปแมวครับ']);
  });

  it('folds an album into one question with all its photos, stored before the message behind it', async () => {
    harness = await startTelegramHarness({ environment: { MODEL_VISION: 'on' } });
    const { telegram } = harness;
    const albums = ['AgACAgUAAxkBAAIalbumA', 'AgACAgUAAxkBAAIalbumB'].map((prefix) => photoSizes(prefix));
    const shades = [60, 180];
    for (const [index, sizes] of albums.entries()) telegram.addFile(sizes.at(-1)?.file_id ?? '', await shadePng(shades[index] ?? 0));
    harness.model.script({ text: 'สองรูปนี้เหมือนกันครับ' });
    // Pushed in one tick, so telegraf gets them in one getUpdates batch: the text closes the album at once.
    telegram.pushUpdate(photoUpdate({ chat: group, from: member, sizes: albums[0], media_group_id: 'album-1', caption: '@saeng_test_bot เทียบสองรูปนี้' }));
    telegram.pushUpdate(photoUpdate({ chat: group, from: member, sizes: albums[1], media_group_id: 'album-1' }));
    const last = telegram.pushUpdate(textMessageUpdate({ chat: group, from: member, text: 'ขอบคุณล่วงหน้า' }));
    await telegram.waitForCall('getUpdates', (call) => Number(call.params.offset) > (last?.update_id ?? Infinity));
    await harness.test.app.inbound.idle();
    expect(harness.model.chatRequests).toHaveLength(1);
    expect(await shownShades(harness.model.chatRequests[0])).toEqual(shades);
    expect(harness.handled.map((handled) => handled.admission.reason)).toEqual(['mention', 'group-not-addressed']);
  });

  it('adds a document with /kb add for a chat administrator and refuses a plain member', async () => {
    harness = await startTelegramHarness({ telegram: { members: [{ chatId: group.id, userId: admin.id, status: 'administrator' }] } });
    await harness.deliver(textMessageUpdate({ chat: group, from: admin, text: '/kb create คู่มือ' }));
    expect(harness.sentTexts(group.id).at(-1)).toContain('คู่มือ');
    const hours = Buffer.from('ร้านเปิดทุกวัน ตั้งแต่แปดโมงเช้าถึงสองทุ่ม\n', 'utf8');
    harness.telegram.addFile('BQACAgUAAxkBAAIhours', hours);
    await harness.deliver(
      documentUpdate({
        chat: group,
        from: admin,
        fileName: 'hours.txt',
        mimeType: 'text/plain',
        fileId: 'BQACAgUAAxkBAAIhours',
        fileSize: hours.length,
        caption: '/kb add คู่มือ',
      }),
    );
    expect(harness.sentTexts(group.id).at(-1)).toBe('คลัง คู่มือ:\n✅ “hours.txt” เพิ่มแล้ว (#1, 1 ส่วน)');
    await harness.deliver(
      documentUpdate({
        chat: group,
        from: member,
        fileName: 'hours.txt',
        mimeType: 'text/plain',
        fileId: 'BQACAgUAAxkBAAIhours',
        fileSize: hours.length,
        caption: '/kb add คู่มือ',
      }),
    );
    expect(harness.sentTexts(group.id).at(-1)).toBe('ขออภัยครับ คำสั่ง /kb ใช้ได้เฉพาะผู้ดูแลของกลุ่มนี้หรือผู้ดูแลระบบเท่านั้น');
    // The administrator's second command is answered from the cache.
    expect(harness.telegram.callsOf('getChatMember').map((call) => Number(call.params.user_id))).toEqual([admin.id, member.id]);
    expect(harness.telegram.callsOf('getFile')).toHaveLength(1);
  });

  it('keeps a document sent alone for the next /kb add, and says so in a direct chat', async () => {
    const direct = { id: admin.id, type: 'private' as const, first_name: admin.first_name };
    harness = await startTelegramHarness({ environment: { ADMIN_IDS: `telegram:${admin.id}` } });
    await harness.deliver(textMessageUpdate({ chat: direct, from: admin, text: '/kb create คู่มือ' }));
    const parking = Buffer.from('จอดรถได้ที่ชั้นใต้ดิน\n', 'utf8');
    harness.telegram.addFile('BQACAgUAAxkBAAIparking', parking);
    await harness.deliver(
      documentUpdate({
        chat: direct,
        from: admin,
        fileName: 'parking.txt',
        mimeType: 'text/plain',
        fileId: 'BQACAgUAAxkBAAIparking',
        fileSize: parking.length,
      }),
    );
    expect(harness.sentTexts(direct.id).at(-1)).toContain('ได้รับไฟล์ parking.txt แล้ว');
    expect(harness.model.chatRequests).toHaveLength(0);
    await harness.deliver(textMessageUpdate({ chat: direct, from: admin, text: '/kb add คู่มือ' }));
    expect(harness.sentTexts(direct.id).at(-1)).toBe('คลัง คู่มือ:\n✅ “parking.txt” เพิ่มแล้ว (#1, 1 ส่วน)');
  });
});
