import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { typingRenewalMs } from '../../../adapters/telegram/delivery.js';
import { group, setUpDelivery, textsOf, type DeliverySetup } from './delivery-setup.js';

// Documents (with the multipart reply telegraf would drop), typing renewal on a hand-moved clock, and progress as
// one edited message.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(): Promise<DeliverySetup> {
  const setup = await setUpDelivery();
  cleanups.push(() => setup.close());
  return setup;
}

async function writtenFile(name: string, content: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'saeng-telegram-'));
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  const file = path.join(folder, name);
  await writeFile(file, content);
  return file;
}

describe('TelegramDelivery.sendDocument', () => {
  it('uploads a written file as a document replying to the question', async () => {
    const { fake, delivery, question } = await start();
    const asked = question('@saeng_test_bot เขียนสรุปเป็นไฟล์');
    const file = await writtenFile('summary.md', '# สรุป\nราคาทองวันนี้\n');
    const sent = await delivery.sendDocument(group.id, { path: file, name: 'สรุป.md' }, { replyToMessageId: asked.message_id });
    expect(sent).toMatchObject({ document: { file_name: 'สรุป.md', mime_type: 'text/markdown' }, reply_to_message: { message_id: asked.message_id } });
    const { document } = fake.callsOf('sendDocument')[0]?.params ?? {};
    expect(document).toEqual({ name: 'สรุป.md', bytes: Buffer.from('# สรุป\nราคาทองวันนี้\n') });
  });

  it('sends the document even when the question is gone, and without a reply when none is asked', async () => {
    const { delivery } = await start();
    const file = await writtenFile('a.txt', 'hello');
    expect('reply_to_message' in (await delivery.sendDocument(group.id, { path: file, name: 'a.txt' }, { replyToMessageId: 424_242 }))).toBe(false);
    expect((await delivery.sendDocument(group.id, { path: file, name: 'b.txt' })).document.file_name).toBe('b.txt');
  });

  it('retries a lost upload with the file read again', async () => {
    const { fake, delivery, waits, deliveryEvents } = await start();
    const file = await writtenFile('report.csv', 'a,b\n1,2\n');
    fake.disconnectNext('sendDocument');
    const sent = await delivery.sendDocument(group.id, { path: file, name: 'report.csv' });
    expect(sent.document.file_size).toBe(8);
    expect(waits).toEqual([500]);
    expect(deliveryEvents).toEqual(['retried', 'sent']);
  });
});

describe('TelegramDelivery.startTyping', () => {
  it('sends typing at once and again every 4 s until stopped (no message counted)', async () => {
    const { fake, delivery, scheduler, deliveryEvents } = await start();
    const typing = delivery.startTyping(group.id);
    for (let tick = 0; tick < 3; tick += 1) scheduler.advance(typingRenewalMs);
    scheduler.advance(typingRenewalMs - 1);
    await typing.stop();
    scheduler.advance(typingRenewalMs * 5);
    expect(fake.callsOf('sendChatAction').map((call) => [call.params.chat_id, call.params.action])).toEqual(
      Array.from({ length: 4 }, () => [group.id, 'typing']),
    );
    expect(scheduler.pending()).toBe(0);
    expect(deliveryEvents).toEqual([]);
  });

  it('a failed typing action does not stop the renewal', async () => {
    const { fake, delivery, scheduler } = await start();
    fake.disconnectNext('sendChatAction');
    const typing = delivery.startTyping(group.id);
    scheduler.advance(typingRenewalMs);
    await typing.stop();
    expect(fake.callsOf('sendChatAction').map((call) => call.outcome?.ok)).toEqual([false, true]);
  });
});

describe('TelegramDelivery.progressMessage', () => {
  it('edits one status message round by round and tolerates "message is not modified"', async () => {
    const { fake, delivery, deliveryEvents } = await start();
    const progress = delivery.progressMessage(group.id);
    await progress.update('ค้นหารอบที่ 1/3…');
    await progress.update('ค้นหารอบที่ 2/3…');
    fake.failNext('editMessageText', {
      error_code: 400,
      description: 'Bad Request: message is not modified: specified new message content and reply markup are exactly the same',
    });
    await progress.update('ค้นหารอบที่ 3/3…');
    await progress.done('ค้นหาเสร็จแล้ว');
    await progress.update('หลังจบ');
    expect(fake.callsOf('sendMessage')).toHaveLength(1);
    expect(fake.callsOf('editMessageText').map((call) => call.params.text)).toEqual(['ค้นหารอบที่ 2/3…', 'ค้นหารอบที่ 3/3…', 'ค้นหาเสร็จแล้ว']);
    expect(textsOf(fake.sentMessages(group.id))).toEqual(['ค้นหาเสร็จแล้ว']);
    expect(progress.postedMessageId()).toBe(fake.sentMessages(group.id)[0]?.message_id);
    // One message sent; the edits are no new messages.
    expect(deliveryEvents).toEqual(['sent']);
  });

  it('collapses updates given while one is on its way into the newest', async () => {
    const { fake, delivery } = await start();
    const progress = delivery.progressMessage(group.id);
    const shown = [progress.update('รอบ 1'), progress.update('รอบ 2'), progress.update('รอบ 3')];
    await Promise.all(shown);
    expect(fake.callsOf('sendMessage').map((call) => call.params.text)).toEqual(['รอบ 3']);
    expect(fake.callsOf('editMessageText')).toHaveLength(0);
  });

  it('posts a new status message when the user deleted the old one', async () => {
    const { fake, delivery } = await start();
    const progress = delivery.progressMessage(group.id);
    await progress.update('รอบ 1');
    fake.failNext('editMessageText', { error_code: 400, description: 'Bad Request: message to edit not found' });
    await progress.update('รอบ 2');
    expect(textsOf(fake.sentMessages(group.id))).toEqual(['รอบ 1', 'รอบ 2']);
  });

  it('a failed round is logged, not thrown, and the next round tries again', async () => {
    const { fake, delivery, records } = await start();
    const progress = delivery.progressMessage(group.id);
    fake.disconnectNext('sendMessage', 2);
    await progress.update('รอบ 1');
    expect(fake.sentMessages(group.id)).toHaveLength(0);
    expect(records.filter((record) => record.msg.includes('best-effort'))).toEqual([expect.objectContaining({ what: 'progress', problem: 'network' })]);
    await progress.update('รอบ 2');
    expect(textsOf(fake.sentMessages(group.id))).toEqual(['รอบ 2']);
  });
});
