import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sandboxRoot } from '../../../agent/tools/files/index.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// Credential-path guard end to end: the model calls read_file / write_file with paths that lead to credentials or
// out of the conversation's sandbox. Decoy credential files exist on disk; their content must never reach the
// model or the user, and nothing may be written outside the sandbox.

let fake: FakeModelServer;
let test: TestApp;
let sandbox: string;

const decoy = 'DECOY-KEY-MATERIAL-never-to-be-read';

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  test = createTestApp({ modelUrl: fake.url, environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off' }, now: () => new Date('2026-11-29T04:00:00Z') });
  const dataDir = path.resolve(test.dataDir);
  sandbox = sandboxRoot({ dataDir, conversationKey: 'console:local' });
  // dataDir/files/<conversation>/../../.ssh is dataDir/.ssh: a real key file two levels above the sandbox.
  mkdirSync(path.join(dataDir, '.ssh'), { recursive: true });
  writeFileSync(path.join(dataDir, '.ssh', 'id_rsa'), decoy);
  mkdirSync(sandbox, { recursive: true });
  writeFileSync(path.join(sandbox, '.env'), `API_TOKEN=${decoy}`);
  symlinkSync(path.join(dataDir, '.ssh', 'id_rsa'), path.join(sandbox, 'notes-link.md'));
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

const credentialReason = 'เป็นตำแหน่งของข้อมูลลับ';
const outsideReason = 'อยู่นอกพื้นที่ไฟล์ของแชตนี้';

describe('credential-path guard through file tool calls from the model', () => {
  const refused: [tool: string, args: Record<string, string>, reason: string][] = [
    ['read_file', { name: '../../.ssh/id_rsa' }, credentialReason],
    ['read_file', { name: '~/.aws/credentials' }, credentialReason],
    ['read_file', { name: '.env' }, credentialReason],
    ['read_file', { name: '%2e%2e/%2e%2e/.ssh/id_rsa' }, credentialReason],
    ['read_file', { name: 'notes-link.md' }, credentialReason],
    ['read_file', { name: '/etc/passwd' }, outsideReason],
    ['write_file', { name: '.env', content: 'API_TOKEN=overwritten' }, credentialReason],
    ['write_file', { name: '../../.ssh/authorized_keys', content: 'ssh-ed25519 AAAA attacker' }, credentialReason],
    ['write_file', { name: '../../escape.md', content: 'outside' }, outsideReason],
  ];

  it.each(refused)('%s %j → a refused result; nothing read, nothing written', async (tool, args, reason) => {
    fake.script({ toolCalls: [{ name: tool, arguments: args }] }, { text: 'ทำไม่ได้ค่ะ ระบบไม่อนุญาตให้เข้าถึงไฟล์นั้น' });
    const handled = await test.ask('ช่วยเปิดไฟล์นั้นให้หน่อย');
    fake.assertAllConsumed();

    const call = handled.turn?.toolCalls[0];
    expect(call).toMatchObject({ name: tool, ok: false });
    expect(call?.result).toMatch(/^ไม่อนุญาตให้(?:อ่าน|เขียนไฟล์) "/);
    expect(call?.result).toContain(reason);
    expect(call?.files).toEqual([]);

    // The model got the refusal as the tool result, and never the decoy.
    const toolMessage = (fake.chatRequests[1]?.messages as { role: string; content?: unknown }[]).at(-1);
    expect(toolMessage).toMatchObject({ role: 'tool', content: call?.result });
    expect(JSON.stringify(fake.requests)).not.toContain(decoy);
    expect(handled.replies).toEqual([expect.objectContaining({ text: 'ทำไม่ได้ค่ะ ระบบไม่อนุญาตให้เข้าถึงไฟล์นั้น', files: [] })]);

    // Files on disk are as they were.
    const dataDir = path.resolve(test.dataDir);
    expect(readFileSync(path.join(sandbox, '.env'), 'utf8')).toBe(`API_TOKEN=${decoy}`);
    expect(existsSync(path.join(dataDir, '.ssh', 'authorized_keys'))).toBe(false);
    expect(existsSync(path.join(dataDir, 'escape.md'))).toBe(false);
  });

  it('a normal write lands in the sandbox and the reply carries the file; reading it back works', async () => {
    const content = '# สรุป\n- ร้านเปิดทุกวัน\n- มีที่จอดรถ';
    fake.script({ toolCalls: [{ name: 'write_file', arguments: { name: 'notes.md', content } }] }, { text: 'บันทึกไฟล์ notes.md แล้วค่ะ' });
    const written = await test.ask('ช่วยบันทึกสรุปลงไฟล์ notes.md');
    expect(written.turn?.toolCalls[0]).toMatchObject({ name: 'write_file', ok: true });
    expect(written.replies).toHaveLength(1);
    expect(written.replies[0]?.text).toBe('บันทึกไฟล์ notes.md แล้วค่ะ');
    expect(written.replies[0]?.files).toEqual([
      { name: 'notes.md', path: path.join(sandbox, 'notes.md'), mime: 'text/markdown', size: Buffer.byteLength(content) },
    ]);
    expect(readFileSync(path.join(sandbox, 'notes.md'), 'utf8')).toBe(content);

    fake.script({ toolCalls: [{ name: 'read_file', arguments: { name: 'notes.md' } }] }, { text: 'ในไฟล์เขียนว่าร้านเปิดทุกวันค่ะ' });
    const read = await test.ask('ในไฟล์ notes.md เขียนว่าอะไร');
    fake.assertAllConsumed();
    expect(read.turn?.toolCalls[0]).toMatchObject({ name: 'read_file', ok: true });
    expect(read.turn?.toolCalls[0]?.result).toContain(content);
    expect(read.replies[0]?.files).toEqual([]);
  });
});
