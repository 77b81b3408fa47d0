import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../fakes/model-server.js';
import { messagesOf, type RecordedMessage } from '../fakes/recorded-messages.js';
import { shadePng, shownShades } from '../support/shade-images.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// Group chats through the real router and agent: an image sent without addressing the bot joins the same user's
// next question there, and the unaddressed chatter above a question goes into the newest user message only.

const fixedNow = () => new Date('2026-12-01T03:00:00Z');
const group = { conversation: 'team-room', group: true };

let folder: string;
let receiptOfAlice: string;
let photoOfBob: string;
let fake: FakeModelServer | undefined;
let test: TestApp | undefined;

// Told apart by their shade once re-encoded for the model.
const aliceShade = 40;
const bobShade = 200;

beforeAll(async () => {
  folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-e2e-group-'));
  receiptOfAlice = path.join(folder, 'receipt.png');
  photoOfBob = path.join(folder, 'cat.png');
  writeFileSync(receiptOfAlice, await shadePng(aliceShade));
  writeFileSync(photoOfBob, await shadePng(bobShade));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));
afterEach(async () => {
  await test?.close();
  await fake?.close();
  test = undefined;
  fake = undefined;
});

async function start(): Promise<{ fake: FakeModelServer; test: TestApp }> {
  fake = await startFakeModelServer({ modelId: 'test-model' });
  test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'off', MODEL_VISION: 'on' }, now: fixedNow });
  return { fake, test };
}

const newestUserMessage = (fake: FakeModelServer, index: number): RecordedMessage | undefined =>
  messagesOf(fake.chatRequests[index])
    .filter((message) => message.role === 'user')
    .at(-1);

function imageUrls(message: RecordedMessage | undefined): string[] {
  if (!Array.isArray(message?.content)) return [];
  return message.content.flatMap((part: unknown) => {
    const url = (part as { image_url?: { url?: unknown } }).image_url?.url;
    return typeof url === 'string' ? [url] : [];
  });
}

describe('group chat', () => {
  it("an image sent just before joins the same user's next question, once, and never another user's", async () => {
    const { fake, test } = await start();
    expect((await test.ask('', { ...group, userId: 'alice', attachmentPaths: [receiptOfAlice] })).admission.kind).toBe('ignore');
    expect((await test.ask('', { ...group, userId: 'bob', attachmentPaths: [photoOfBob] })).admission.kind).toBe('ignore');
    expect(fake.chatRequests).toHaveLength(0);

    fake.script({ text: 'ใบเสร็จนี้เป็นของร้านกาแฟครับ' }, { text: 'ยังไม่เห็นรูปใหม่ครับ' });
    const first = await test.ask('อ่านใบเสร็จนี้ให้หน่อย', { ...group, userId: 'alice', mention: true });
    expect(first.replies[0]?.text).toBe('ใบเสร็จนี้เป็นของร้านกาแฟครับ');
    expect(imageUrls(newestUserMessage(fake, 0))).toHaveLength(1);
    expect(await shownShades(fake.chatRequests[0])).toEqual([aliceShade]);

    // Taken once: the next question of the same user carries no image.
    await test.ask('แล้วรูปล่ะ', { ...group, userId: 'alice', mention: true });
    expect(imageUrls(newestUserMessage(fake, 1))).toEqual([]);
    fake.assertAllConsumed();
  });

  it('a bare mention after a photo asks about the photo; a bare mention alone gets a hint, not a model call', async () => {
    const { fake, test } = await start();
    await test.ask('', { ...group, userId: 'alice', attachmentPaths: [receiptOfAlice] });
    fake.script({ text: 'ใบเสร็จร้านกาแฟครับ' });
    const asked = await test.ask('', { ...group, userId: 'alice', mention: true });
    expect(asked.replies[0]?.text).toBe('ใบเสร็จร้านกาแฟครับ');
    const sent = newestUserMessage(fake, 0);
    expect(imageUrls(sent)).toHaveLength(1);
    expect(await shownShades(fake.chatRequests[0])).toEqual([aliceShade]);
    expect(JSON.stringify(sent?.content)).toContain('ช่วยอ่านและอธิบายรูปนี้ให้หน่อย');

    const bare = await test.ask('', { ...group, userId: 'alice', mention: true });
    expect(bare.replies[0]?.text).toContain('เรียกแสงแล้วพิมพ์คำถามต่อท้ายได้เลย');
    expect(fake.chatRequests).toHaveLength(1);
    fake.assertAllConsumed();
  });

  it('the chatter above a question goes into the newest user message, not into history', async () => {
    const { fake, test } = await start();
    await test.ask('พรุ่งนี้ประชุมตอน 10:00 ที่ห้องใหญ่นะ', { ...group, userId: 'bob' });
    await test.ask('รับทราบ', { ...group, userId: 'carol' });
    fake.script({ text: 'สรุป: พรุ่งนี้ประชุม 10:00 ที่ห้องใหญ่ครับ' }, { text: 'ไม่มีอะไรเพิ่มครับ' });

    const summary = await test.ask('สรุปที่คุยกันข้างบนให้หน่อย', { ...group, userId: 'alice', mention: true });
    const sent = newestUserMessage(fake, 0)?.content;
    expect(typeof sent).toBe('string');
    expect(sent).toContain('ข้อความล่าสุดในแชตนี้ (ไม่ได้ถามบอท):\n- bob: พรุ่งนี้ประชุมตอน 10:00 ที่ห้องใหญ่นะ\n- carol: รับทราบ');
    // The figure the chat said backs the answer's figure (not marked unconfirmed).
    expect(summary.replies[0]?.text).toBe('สรุป: พรุ่งนี้ประชุม 10:00 ที่ห้องใหญ่ครับ');

    await test.ask('มีอะไรอีกไหม', { ...group, userId: 'alice', mention: true });
    const history = messagesOf(fake.chatRequests[1]).slice(1, -1);
    expect(history).toHaveLength(2);
    expect(JSON.stringify(history)).not.toContain('ห้องใหญ่นะ');
    fake.assertAllConsumed();
  });
});
