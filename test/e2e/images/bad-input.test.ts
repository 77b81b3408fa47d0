import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { newestUserContent } from '../../fakes/recorded-messages.js';
import { writeReceiptPhoto } from '../../support/receipt-photos.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';
import { systemProgramPresent, tesseractProgram } from '../../support/system-programs.js';

// Every bad image gets a plain Thai answer and the turn goes on: not an image, a format we do not read, too many
// bytes or pixels, a tesseract that hangs, and no tesseract at all (then /status says so too).

let model: FakeModelServer;
let test: TestApp;
let directory: string;

beforeAll(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'saeng-bad-images-'));
});

async function start(environment: Record<string, string> = {}): Promise<void> {
  model = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  test = createTestApp({ modelUrl: model.url, environment: { MODEL_TOOLS: 'off', MODEL_VISION: 'off', ...environment } });
}

afterEach(async () => {
  await test.close();
  await model.close();
});

function file(name: string, bytes: Uint8Array | string): string {
  const target = path.join(directory, name);
  writeFileSync(target, bytes);
  return target;
}

async function askWith(attachment: string, question = 'ดูรูปนี้หน่อย') {
  model.script({ text: 'ตอบจากข้อความ' });
  const handled = await test.ask(question, { attachmentPaths: [attachment] });
  return handled.replies.map((reply) => reply.text);
}

describe('an image that cannot be used', () => {
  it('is not an image (text renamed .png): the user hears why and gets an answer', async () => {
    await start();
    const replies = await askWith(file('photo.png', 'just some text, not a picture'));
    expect(replies).toEqual(['ใช้รูป "photo.png" ไม่ได้: ไฟล์นี้ไม่ใช่รูปภาพ (รองรับ JPEG, PNG, WebP และ GIF) จะตอบจากข้อความอย่างเดียว', 'ตอบจากข้อความ']);
    expect(JSON.stringify(model.chatRequests[0])).not.toContain('ตัวหนังสือในรูป');
  });

  it('is a PDF renamed .png: named as what it is', async () => {
    await start();
    const replies = await askWith(file('scan.png', '%PDF-1.7 not a picture'));
    expect(replies[0]).toBe('ใช้รูป "scan.png" ไม่ได้: ยังไม่รองรับรูปแบบ PDF กรุณาส่งเป็น JPEG หรือ PNG (หรือแคปหน้าจอแล้วส่งแทน) จะตอบจากข้อความอย่างเดียว');
  });

  it('is a HEIC photo: the user is told to send JPEG or PNG', async () => {
    await start();
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.alloc(4), Buffer.from('mif1heic'), Buffer.alloc(64)]);
    const replies = await askWith(file('IMG_0001.heic', heic));
    // The file name is the sender's: escaped in the notice's Markdown (it renders as IMG_0001.heic).
    expect(replies[0]).toBe('ใช้รูป "IMG\\_0001.heic" ไม่ได้: ยังไม่รองรับรูปแบบ HEIC กรุณาส่งเป็น JPEG หรือ PNG (หรือแคปหน้าจอแล้วส่งแทน) จะตอบจากข้อความอย่างเดียว');
    expect(replies[1]).toBe('ตอบจากข้อความ');
  });

  it('has too many pixels (checked from the header, before decoding)', async () => {
    await start({ MAX_IMAGE_PIXELS: '1000000' });
    const wide = await sharp({ create: { width: 1600, height: 1000, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const replies = await askWith(file('wide.png', wide));
    expect(replies[0]).toBe('ใช้รูป "wide.png" ไม่ได้: รูปมีความละเอียดสูงเกินไป (1.6 ล้านพิกเซล เกินขีดจำกัด 1 ล้านพิกเซล) กรุณาย่อรูปแล้วส่งใหม่ จะตอบจากข้อความอย่างเดียว');
  });

  it('is too large in bytes', async () => {
    await start({ MAX_IMAGE_BYTES: '2048' });
    const photo = await writeReceiptPhoto(directory);
    const replies = await askWith(photo);
    expect(replies[0]).toMatch(/^ใช้รูป "receipt\.jpg" ไม่ได้: รูปใหญ่เกินไป \(\d+ KB เกินขีดจำกัด 2 KB\) จะตอบจากข้อความอย่างเดียว$/);
  });
});

describe('OCR that cannot run', () => {
  it('times out: the model is told, the answer says so, and the process answers the next question', async () => {
    // Answers tesseract's checks, then hangs on the image until it is killed.
    const hanging = file('hanging-tesseract.sh', '#!/bin/sh\ncase "$1" in --version|--list-langs) exec tesseract "$@";; esac\nexec sleep 60\n');
    chmodSync(hanging, 0o755);
    await start({ TESSERACT_PATH: hanging, OCR_TIMEOUT_MS: '1000' });
    const photo = await writeReceiptPhoto(directory);
    const replies = await askWith(photo, 'รวมเท่าไหร่');
    expect(String(newestUserContent(model.chatRequests[0]))).toContain('(อ่านไม่ได้: อ่านตัวหนังสือในรูปนานเกิน 1 วินาทีจึงหยุดไว้)');
    expect(replies).toEqual(['(อ่านตัวหนังสือในรูปไม่สำเร็จ และโมเดลที่ใช้อยู่มองไม่เห็นรูปภาพ จึงตอบจากข้อความอย่างเดียว)\n\nตอบจากข้อความ']);
    // The process stays up and answers the next question.
    model.script({ text: 'สวัสดีค่ะ' });
    expect((await test.ask('สวัสดี')).replies.map((reply) => reply.text)).toEqual(['สวัสดีค่ะ']);
  });

  it('is not installed: tesseract.js from npm reads the image instead, and /status names it', async () => {
    await start({ TESSERACT_PATH: path.join(directory, 'no-such-tesseract') });
    const photo = await writeReceiptPhoto(directory);
    const replies = await askWith(photo, 'รวมเท่าไหร่');
    expect(String(newestUserContent(model.chatRequests[0]))).toContain('190.00');
    expect(replies).toEqual(['ตอบจากข้อความ']);
    const status = (await test.ask('/status')).replies[0]?.text ?? '';
    expect(status).toMatch(/- อ่านตัวหนังสือในรูป \(OCR\): ได้ \(tesseract\.js \d+\.\d+\.\d+ ที่มากับบอท/);
  });

  it.skipIf(!systemProgramPresent(tesseractProgram))('is installed: /status gives the version and languages', async () => {
    await start();
    const status = (await test.ask('/status')).replies[0]?.text ?? '';
    expect(status).toMatch(/- อ่านตัวหนังสือในรูป \(OCR\): ได้ \(tesseract 5\.\d+\.\d+, ภาษา tha\+eng\)/);
  });
});
