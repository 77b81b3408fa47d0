import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dlpNotice } from '../../../src/dlp/scan.js';
import { Outbound } from '../../../src/pipeline/outbound.js';
import type { OutboundFile } from '../../../src/shared/types.js';
import { fake as fakeToken } from '../../support/fake-tokens.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { createTestApp, lookupTool, type TestApp } from '../../support/test-app.js';
import { memoryLog, type LogRecord } from '../../support/memory-log.js';

// DLP end to end: a credential that reaches an outgoing message — echoed from a tool result, one of Saeng's own
// configured secrets, or inside a command reply or a file — blocks the whole message with the Thai notice. The
// event is recorded and logged without the secret, and the secret never enters the history.

let fake: FakeModelServer;
let test: TestApp;
let records: LogRecord[];
let toolResult: string;

function appWith(environment: Record<string, string> = {}): TestApp {
  const memory = memoryLog('info');
  records = memory.records;
  return createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', ...environment },
    extraTools: [lookupTool(() => toolResult)],
    now: () => new Date('2026-11-29T04:00:00Z'),
    log: memory.log,
  });
}

beforeEach(async () => {
  toolResult = '';
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  test = appWith();
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

const notice = dlpNotice('th');
const lookupCall = { toolCalls: [{ name: 'lookup', arguments: { query: 'config' } }] };

describe('DLP on answers through the turn', () => {
  const awsKeyId = fakeToken.awsKeyId();
  const githubToken = fakeToken.githubClassic();
  const fineGrained = fakeToken.githubFineGrained();
  const echoed: [name: string, result: string, answer: string, secret: string][] = [
    [
      'an AWS access key id',
      `[default]\naws_access_key_id = ${awsKeyId}\naws_secret_access_key = ${fakeToken.awsSecret()}`,
      `คีย์ที่พบคือ ${awsKeyId} ค่ะ`,
      awsKeyId,
    ],
    ['a classic GitHub token', `GITHUB_TOKEN=${githubToken}`, `โทเคนคือ \`${githubToken}\``, githubToken],
    ['a fine-grained GitHub token', `token: ${fineGrained}`, `ได้เลยค่ะ: ${fineGrained}`, fineGrained],
    [
      'a token split by a zero-width space',
      `GITHUB_TOKEN=${githubToken}`,
      `โทเคนคือ ${githubToken.slice(0, 10)}\u200b${githubToken.slice(10)}`,
      githubToken.slice(10),
    ],
    ['a Markdown-escaped token', `GITHUB_TOKEN=${githubToken}`, `โทเคนคือ ${githubToken.replace('_', '\\_')}`, githubToken.slice(4)],
  ];

  it.each(echoed)('%s echoed from a tool result → the whole reply is the Thai notice; not in logs or history', async (_name, result, answer, secret) => {
    toolResult = result;
    fake.script(lookupCall, { text: answer }, { text: 'สวัสดีค่ะ' });
    const handled = await test.ask('ค่าในไฟล์ตั้งค่าคืออะไร');

    expect(handled.replies).toEqual([expect.objectContaining({ text: notice, files: [] })]);
    expect(handled.turn?.guardEvents).toContainEqual(expect.objectContaining({ guard: 'dlp', action: 'block' }));
    expect(handled.turn?.finalText).toBe(notice);
    expect(records.find((record) => record.msg === 'turn')).toMatchObject({ guards: expect.arrayContaining(['dlp:block']) });
    expect(JSON.stringify(records)).not.toContain(secret);

    // The next turn's request carries neither the secret nor the blocked exchange.
    await test.ask('สวัสดี');
    fake.assertAllConsumed();
    const next = JSON.stringify(fake.chatRequests.at(-1));
    expect(next).not.toContain(secret);
    expect(next).not.toContain('ค่าในไฟล์ตั้งค่าคืออะไร');
  });

  it('a clean answer next to the same tool result is sent as is (the tool result alone is not the reply)', async () => {
    toolResult = `GITHUB_TOKEN=${githubToken}`;
    fake.script(lookupCall, { text: 'ในไฟล์มีโทเคน GitHub อยู่หนึ่งค่า ควรย้ายไปเก็บในตัวจัดการรหัสลับค่ะ' });
    const handled = await test.ask('ในไฟล์ตั้งค่ามีอะไรบ้าง');
    expect(handled.replies[0]?.text).toBe('ในไฟล์มีโทเคน GitHub อยู่หนึ่งค่า ควรย้ายไปเก็บในตัวจัดการรหัสลับค่ะ');
    expect(handled.turn?.guardEvents.filter((event) => event.guard === 'dlp')).toEqual([]);
  });

  async function echoConfigured(variable: string, value: string) {
    await test.close();
    test = appWith({ [variable]: value });
    fake.script({ text: `ค่า ${variable} ตอนนี้คือ ${value}` });
    return test.ask(`${variable} ตั้งไว้เป็นอะไร`);
  }

  it("Saeng's own secret with no credential shape, echoed → blocked as a configured secret", async () => {
    const value = 'saeng-line-channel-secret-0417';
    const handled = await echoConfigured('LINE_CHANNEL_SECRET', value);
    expect(handled.replies[0]?.text).toBe(notice);
    expect(handled.turn?.guardEvents).toContainEqual(
      expect.objectContaining({ guard: 'dlp', action: 'block', reason: expect.stringContaining('configured-secret') }),
    );
    expect(JSON.stringify(records)).not.toContain(value);
  });

  const telegramToken = fakeToken.telegramBot();
  it('a Telegram bot token echoed from a tool result → blocked', async () => {
    toolResult = `TELEGRAM_BOT_TOKEN=${telegramToken}`;
    fake.script(lookupCall, { text: `โทเคนบอทคือ ${telegramToken}` });
    const handled = await test.ask('โทเคนบอทในไฟล์คืออะไร');
    expect(handled.replies[0]?.text).toBe(notice);
  });

  // Bug (see the report): the numbers guard runs before DLP. When the token's bot id is not in this turn's support
  // it is replaced by the marker, so DLP sees neither the Telegram shape nor the configured value, and the user
  // gets "[ตัวเลขยังไม่ยืนยัน]:<the secret half>".
  it("Saeng's own TELEGRAM_BOT_TOKEN echoed → blocked", async () => {
    const handled = await echoConfigured('TELEGRAM_BOT_TOKEN', telegramToken);
    expect(handled.replies[0]?.text).toBe(notice);
  });
  it('a Telegram bot token from an earlier turn echoed → blocked', async () => {
    fake.script({ text: 'รับทราบค่ะ' }, { text: `โทเคนที่ให้ไว้คือ ${telegramToken}` });
    await test.ask(`จำโทเคนนี้ไว้ ${telegramToken}`);
    const handled = await test.ask('โทเคนที่ให้ไว้เมื่อกี้คืออะไร');
    expect(handled.replies[0]?.text).toBe(notice);
  });

  it('a write_file call whose content carries a credential is refused; nothing is written or sent', async () => {
    fake.script(
      { toolCalls: [{ name: 'write_file', arguments: { name: 'keys.txt', content: `AWS_ACCESS_KEY_ID=${awsKeyId}` } }] },
      { text: 'บันทึกไม่ได้ค่ะ' },
      // The write-file claim retry (the user asked for a file): the model gives up again.
      { text: 'บันทึกไม่ได้ค่ะ' },
    );
    const handled = await test.ask('ช่วยบันทึกคีย์ลงไฟล์ keys.txt');
    fake.assertAllConsumed();
    expect(handled.turn?.toolCalls[0]).toMatchObject({ name: 'write_file', ok: false });
    expect(handled.turn?.toolCalls[0]?.result).toContain('ไม่บันทึก เพราะเนื้อหามีข้อมูลที่ดูเหมือนรหัสลับ');
    expect(handled.turn?.files).toEqual([]);
    expect(handled.replies[0]?.files).toEqual([]);
    expect(handled.replies[0]?.text).toContain('ขออภัย ครั้งนี้ยังไม่ได้บันทึกไฟล์ใด ๆ');
    expect(JSON.stringify(handled.replies)).not.toContain(awsKeyId);
  });
});

describe('DLP on command replies and files (src/pipeline/outbound.ts)', () => {
  it('a /kb search whose reply would echo a token is blocked; the same command without one is not', async () => {
    const token = fakeToken.githubClassic('ghs');
    const created = await test.ask('/kb create dlp-check');
    expect(created.replies[0]?.text).toContain('dlp-check');

    const clean = await test.ask('/kb search dlp-check ราคาทอง');
    expect(clean.replies[0]?.text).toContain('ราคาทอง');

    const leaking = await test.ask(`/kb search dlp-check ${token}`);
    expect(leaking.replies).toEqual([expect.objectContaining({ text: notice, files: [] })]);
    const blocked = records.find((record) => record.msg === 'outbound message blocked by DLP');
    expect(blocked).toMatchObject({ kinds: expect.arrayContaining([expect.any(String)]) });
    expect(JSON.stringify(records)).not.toContain(token);
    expect(fake.chatRequests).toEqual([]);
  });

  describe('Outbound.prepare with files', () => {
    let folder: string;
    beforeEach(() => {
      folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-dlp-'));
    });
    afterEach(() => rmSync(folder, { recursive: true, force: true }));

    const file = (name: string, content: string): OutboundFile => {
      const filePath = path.join(folder, name);
      writeFileSync(filePath, content);
      return { name, path: filePath, mime: 'text/plain', size: Buffer.byteLength(content) };
    };

    it('blocks a reply whose file carries a credential, even when its text is clean', async () => {
      const memory = memoryLog('info');
      const outbound = new Outbound({ secrets: [], language: 'th', log: memory.log });
      const pem = fakeToken.pemBlock();
      const reply = { text: 'ไฟล์ตามที่ขอค่ะ', files: [file('notes.md', '# สรุป\nร้านเปิดทุกวัน'), file('server.txt', `config\n${pem}`)], replyTo: 'm1' };
      expect(await outbound.prepare(reply, 'console:local')).toEqual({ text: notice, files: [], replyTo: 'm1' });
      expect(memory.records).toEqual([expect.objectContaining({ msg: 'outbound message blocked by DLP', files: 2 })]);
      expect(JSON.stringify(memory.records)).not.toContain(pem.split('\n')[1]);
    });

    it('blocks a configured secret in a file, and lets clean files through untouched', async () => {
      const outbound = new Outbound({ secrets: ['saeng-line-channel-secret-0417'], language: 'th', log: memoryLog().log });
      const leaking = { text: 'ไฟล์ค่ะ', files: [file('env.txt', 'LINE_CHANNEL_SECRET=saeng-line-channel-secret-0417')] };
      expect((await outbound.prepare(leaking, 'console:local')).text).toBe(notice);
      const clean = { text: 'ไฟล์ค่ะ', files: [file('notes.md', '# สรุป\nร้านเปิดทุกวัน')] };
      expect(await outbound.prepare(clean, 'console:local')).toBe(clean);
    });
  });
});
