import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { messagesOf, newestUserContent } from '../../fakes/recorded-messages.js';
import { fake as fakeTokens } from '../../support/fake-tokens.js';
import { writeFileSync } from 'node:fs';
import { writeReceiptPhoto, writeTextImage } from '../../support/receipt-photos.js';
import { shadePng, shownImageUrls, shownShades } from '../../support/shade-images.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// A Thai receipt photo through the real turn and the real tesseract, for each kind of model: one that calls
// read_image, one that cannot call tools (the text comes with the question), and one that can see (the picture
// comes downscaled, its GPS position gone).

let model: FakeModelServer;
let test: TestApp;
const fixedNow = () => new Date('2026-03-12T04:00:00Z');

async function start(environment: Record<string, string>): Promise<void> {
  model = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  test = createTestApp({ modelUrl: model.url, environment, now: fixedNow });
}

afterEach(async () => {
  await test.close();
  await model.close();
});

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: { type?: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : '')).join('\n');
}

async function decodeDataUri(url: string): Promise<sharp.Metadata> {
  const base64 = url.slice(url.indexOf(',') + 1);
  return sharp(Buffer.from(base64, 'base64')).metadata();
}

let receiptDirectory: string;
function writeBytes(name: string, bytes: Uint8Array): string {
  const file = `${receiptDirectory}/${name}`;
  writeFileSync(file, bytes);
  return file;
}
beforeAll(async () => {
  const { mkdtempSync } = await import('node:fs');
  const os = await import('node:os');
  receiptDirectory = mkdtempSync(`${os.tmpdir()}/saeng-receipt-`);
});

describe('a model that calls tools and sees', () => {
  it('gets the photo downscaled without its GPS position, and the exact total through read_image', async () => {
    await start({ MODEL_TOOLS: 'on', MODEL_VISION: 'on' });
    const photo = await writeReceiptPhoto(receiptDirectory);
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    model.script({ toolCalls: [{ name: 'read_image', arguments: { image: 1 } }] }, { text: 'ยอดรวมทั้งสิ้น 190.00 บาทค่ะ' });
    const handled = await test.ask('@saeng อ่านใบเสร็จนี้ให้หน่อย รวมเท่าไหร่', { attachmentPaths: [photo] });
    model.assertAllConsumed();

    const [first, second] = model.chatRequests;
    const shown = shownImageUrls(first);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatch(/^data:image\/jpeg;base64,/);
    const metadata = await decodeDataUri(shown[0] ?? '');
    expect(Math.max(metadata.width, metadata.height)).toBe(1280);
    expect(metadata.exif).toBeUndefined();
    expect(textOf(newestUserContent(first))).toContain('1) receipt.jpg');

    const toolResult = messagesOf(second).find((message) => message.role === 'tool');
    expect(String(toolResult?.content)).toContain('รวมทั้งสิ้น 190.00 บาท');
    // Already seen with the question: not sent a second time.
    expect(shownImageUrls(second)).toHaveLength(1);
    expect(handled.replies.map((reply) => reply.text)).toEqual(['ยอดรวมทั้งสิ้น 190.00 บาทค่ะ']);
    expect(handled.turn?.guardEvents.filter((event) => event.action !== 'pass')).toEqual([]);
    // /usage's OCR pages: the one image read.
    expect(handled.turn?.imagesRead).toBe(1);
  });
});

describe('a model that calls tools and sees, with more images than go with the question', () => {
  it('is shown the third image on the call after its read_image, not before', async () => {
    await start({ MODEL_TOOLS: 'on', MODEL_VISION: 'on' });
    const shades = [40, 120, 200];
    const files = await Promise.all(shades.map(async (shade, index) => writeBytes(`shade-${index + 1}.png`, await shadePng(shade))));
    model.script({ toolCalls: [{ name: 'read_image', arguments: { image: 3 } }] }, { text: 'รูปที่สามเป็นสีเทาอ่อน' });
    await test.ask('รูปที่สามเป็นสีอะไร', { attachmentPaths: files });
    model.assertAllConsumed();
    const [first, second] = model.chatRequests;
    expect(await shownShades(first)).toEqual([40, 120]);
    expect(textOf(newestUserContent(first))).toContain('1) shade-1.png 2) shade-2.png 3) shade-3.png');
    const messages = messagesOf(second);
    const toolIndex = messages.findIndex((message) => message.role === 'tool');
    expect(String(messages[toolIndex]?.content)).toContain('(รูปนี้จะแสดงให้คุณดูในขั้นถัดไปด้วย)');
    expect(messages[toolIndex + 1]?.role).toBe('user');
    expect(await shownShades(second)).toEqual([40, 120, 200]);
  });
});

describe('a model that calls tools but cannot see', () => {
  it('gets the text up front; a read_image call after that reads from the cache', async () => {
    await start({ MODEL_TOOLS: 'on', MODEL_VISION: 'off' });
    const photo = await writeReceiptPhoto(receiptDirectory);
    model.script({ toolCalls: [{ name: 'read_image', arguments: {} }] }, { text: 'รวมทั้งสิ้น 190.00 บาทค่ะ' });
    const handled = await test.ask('รวมเท่าไหร่', { attachmentPaths: [photo] });
    model.assertAllConsumed();
    expect(textOf(newestUserContent(model.chatRequests[0]))).toContain('รวมทั้งสิ้น 190.00 บาท');
    expect(shownImageUrls(model.chatRequests[0])).toEqual([]);
    const toolResult = messagesOf(model.chatRequests[1]).find((message) => message.role === 'tool');
    expect(String(toolResult?.content)).toContain('รวมทั้งสิ้น 190.00 บาท');
    expect(String(toolResult?.content)).not.toContain('แสดงให้คุณดู');
    expect(handled.replies.map((reply) => reply.text)).toEqual(['รวมทั้งสิ้น 190.00 บาทค่ะ']);
    // Read up front, then from the cache: one page for /usage.
    expect(handled.turn?.imagesRead).toBe(1);
  });
});

describe('a model that cannot call tools', () => {
  it('gets the receipt text with the question; the total it repeats is a sourced figure', async () => {
    await start({ MODEL_TOOLS: 'off', MODEL_VISION: 'off' });
    const photo = await writeReceiptPhoto(receiptDirectory);
    model.script({ text: 'รวมทั้งสิ้น 190.00 บาท มีลาเต้เย็น 2 แก้ว' });
    const handled = await test.ask('รวมเท่าไหร่', { attachmentPaths: [photo] });
    const question = textOf(newestUserContent(model.chatRequests[0]));
    expect(question).toContain('รวมเท่าไหร่');
    expect(question).toContain('[ตัวหนังสือในรูปที่ผู้ใช้แนบมา');
    expect(question).toContain('รูปที่ 1 (receipt.jpg):');
    expect(question).toContain('รวมทั้งสิ้น 190.00 บาท');
    // Never in the system prompt: it stays byte-identical across turns.
    expect(textOf(messagesOf(model.chatRequests[0])[0]?.content)).not.toContain('190.00');
    expect(shownImageUrls(model.chatRequests[0])).toEqual([]);
    expect(handled.replies.map((reply) => reply.text)).toEqual(['รวมทั้งสิ้น 190.00 บาท มีลาเต้เย็น 2 แก้ว']);
  });

  it('still has the DLP block a credential read off a screenshot', async () => {
    await start({ MODEL_TOOLS: 'off', MODEL_VISION: 'off' });
    const key = fakeTokens.awsKeyId();
    const screenshot = await writeTextImage(receiptDirectory, 'settings.png', `AWS_ACCESS_KEY_ID=${key}`, 'PlexMono');
    model.script({ text: `คีย์ในรูปคือ ${key}` });
    const handled = await test.ask('ในรูปเขียนว่าอะไร', { attachmentPaths: [screenshot] });
    expect(textOf(newestUserContent(model.chatRequests[0]))).toContain(key);
    const reply = handled.replies.at(-1)?.text ?? '';
    expect(reply).not.toContain(key);
    expect(reply).toMatch(/ถูกระงับ/);
    expect(handled.turn?.guardEvents.map((event) => `${event.guard}:${event.action}`)).toContain('dlp:block');
  });
});

describe('a model that sees but cannot call tools', () => {
  it('gets both the picture and its text', async () => {
    await start({ MODEL_TOOLS: 'off', MODEL_VISION: 'on' });
    const photo = await writeReceiptPhoto(receiptDirectory);
    model.script({ text: 'ใบเสร็จร้านกาแฟแสงเช้า รวม 190.00 บาท' });
    const handled = await test.ask('นี่คือใบเสร็จอะไร', { attachmentPaths: [photo] });
    expect(shownImageUrls(model.chatRequests[0])).toHaveLength(1);
    expect(textOf(newestUserContent(model.chatRequests[0]))).toContain('190.00');
    expect(handled.replies.map((reply) => reply.text)).toEqual(['ใบเสร็จร้านกาแฟแสงเช้า รวม 190.00 บาท']);
  });
});
