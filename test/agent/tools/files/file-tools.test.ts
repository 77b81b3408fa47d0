import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileTools, sandboxRoot } from '../../../../agent/tools/files/index.js';
import { sanitizeFileName } from '../../../../agent/tools/files/sandbox.js';
import type { AnyTool, ToolContext, ToolResult } from '../../../../agent/tools/tool.js';
import { silentLogger } from '../../../../src/shared/log.js';
import type { Language } from '../../../../src/shared/types.js';
import { fake } from '../../../support/fake-tokens.js';

let dataDir: string;

beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'saeng-files-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

function context(language: Language = 'th', conversationKey = 'discord:guild-1:channel-2'): ToolContext {
  return {
    conversationKey,
    spaceKey: 'discord:guild-1',
    boundKnowledgeBaseIds: [],
    images: [],
    readImageText: () => Promise.resolve({ ok: false, failure: { code: 'unavailable', detail: 'no images here' } }),
    showImageToModel: () => Promise.resolve(false),
    language,
    dataDir,
    secrets: [],
    signal: new AbortController().signal,
    log: silentLogger(),
    complete: async () => '',
    progress: () => undefined,
    now: () => new Date('2025-01-15T07:30:00Z'),
    turnState: new Map(),
  };
}

function tool(name: string): AnyTool {
  const found = createFileTools().find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

async function run(name: string, input: unknown, toolContext = context()): Promise<ToolResult> {
  const selected = tool(name);
  return selected.execute(selected.input.parse(input), toolContext);
}

describe('write_file / read_file / list_files', () => {
  it('writes a Thai file into the conversation sandbox, returns it in files, and reads it back', async () => {
    const content = '# สรุปราคาทอง\nทองคำแท่งขายออก 41,050 บาท\n';
    const written = await run('write_file', { name: 'สรุป ราคาทอง.md', content });
    expect(written.ok).toBe(true);
    expect(written.content).toMatch(/บันทึกไฟล์ สรุป ราคาทอง\.md แล้ว/);
    const root = sandboxRoot(context());
    expect(written.files).toEqual([
      { name: 'สรุป ราคาทอง.md', path: path.join(root, 'สรุป ราคาทอง.md'), mime: 'text/markdown', size: Buffer.byteLength(content) },
    ]);
    expect(readFileSync(path.join(root, 'สรุป ราคาทอง.md'), 'utf8')).toBe(content);
    const read = await run('read_file', { name: 'สรุป ราคาทอง.md' });
    expect(read).toEqual({ ok: true, content: `ไฟล์ สรุป ราคาทอง.md (${Buffer.byteLength(content)} B):\n\n${content}` });
  });

  it('overwrites, defaults to .txt, flattens folders and finds a file by the name the model first gave', async () => {
    await run('write_file', { name: 'notes', content: 'v1' });
    await run('write_file', { name: 'notes', content: 'v2' });
    expect((await run('read_file', { name: 'notes.txt' })).content).toMatch(/\n\nv2$/);
    const flattened = await run('write_file', { name: 'reports/ม.ค./report?.csv', content: 'a,b' });
    expect(flattened.files?.[0]?.name).toBe('reports_ม.ค._report_.csv');
    expect((await run('read_file', { name: 'reports/ม.ค./report?.csv' })).ok).toBe(true);
  });

  it('keeps conversations apart', async () => {
    await run('write_file', { name: 'a.md', content: 'x' }, context('th', 'telegram:1'));
    const other = await run('read_file', { name: 'a.md' }, context('th', 'telegram:2'));
    expect(other.ok).toBe(false);
    expect(other.content).toMatch(/ไม่พบไฟล์/);
  });

  const refusedWrites: [string, { name: string; content: string }, RegExp][] = [
    ['a path out of the sandbox', { name: '../../evil.md', content: 'x' }, /อยู่นอกพื้นที่ไฟล์/],
    ['an absolute path', { name: '/tmp/evil.md', content: 'x' }, /อยู่นอกพื้นที่ไฟล์/],
    ['a credential file name', { name: '.env', content: 'A=1' }, /ตำแหน่งของข้อมูลลับ/],
    ['a key file', { name: 'server.pem', content: 'x' }, /ตำแหน่งของข้อมูลลับ/],
    ['a non-text format', { name: 'run.sh', content: 'rm -rf /' }, /รองรับเฉพาะไฟล์ข้อความ/],
    ['an empty name', { name: '...', content: 'x' }, /ชื่อไฟล์ว่าง/],
    ['more than 1 MB of Thai text', { name: 'big.txt', content: 'ก'.repeat(400_000) }, /เกินขีดจำกัด 1 MB/],
    ['content with a credential', { name: 'keys.txt', content: `token: ${fake.githubClassic()}` }, /ดูเหมือนรหัสลับ \(github-token\)/],
  ];
  it.each(refusedWrites)('refuses to write %s', async (_name, input, message) => {
    const result = await run('write_file', input);
    expect(result.ok).toBe(false);
    expect(result.content).toMatch(message);
    expect(result.files ?? []).toEqual([]);
  });

  it("refuses a file holding Saeng's own secret, whole or a piece of it", async () => {
    const secret = fake.telegramBot();
    const withSecrets = { ...context(), secrets: [secret] };
    for (const content of [`BOT=${secret}`, `ครึ่งแรก: ${secret.slice(0, 24)}`]) {
      const result = await run('write_file', { name: 'notes.txt', content }, withSecrets);
      expect(result.ok).toBe(false);
      expect(result.content).toMatch(/ดูเหมือนรหัสลับ/);
    }
  });

  it('does not follow a symlink planted at the target name', async () => {
    const root = sandboxRoot(context());
    mkdirSync(root, { recursive: true });
    const outside = path.join(dataDir, 'outside.txt');
    writeFileSync(outside, 'original');
    symlinkSync(outside, path.join(root, 'trap.txt'));
    const result = await run('write_file', { name: 'trap.txt', content: 'overwritten' });
    expect(result.ok).toBe(false);
    expect(readFileSync(outside, 'utf8')).toBe('original');
    expect((await run('read_file', { name: 'trap.txt' })).ok).toBe(false);
  });

  it('refuses credential paths and missing files on read, listing what exists', async () => {
    expect((await run('read_file', { name: '~/.ssh/id_rsa' })).content).toMatch(/ไม่อนุญาตให้อ่าน/);
    await run('write_file', { name: 'a.md', content: 'x' });
    expect((await run('read_file', { name: 'b.md' })).content).toBe('ไม่พบไฟล์ "b.md" ไฟล์ที่มี: a.md');
  });

  it('returns at most 256 KB of a large file with a note', async () => {
    const root = sandboxRoot(context());
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, 'big.txt'), 'ข'.repeat(200_000)); // 600,000 bytes
    const result = await run('read_file', { name: 'big.txt' });
    expect(result.ok).toBe(true);
    expect(result.content).toMatch(/\[แสดงเพียง 256\.0 KB แรกจากทั้งหมด 585\.9 KB\]$/);
    expect(result.content).not.toContain('\ufffd');
  });

  it('lists files (English when the turn is English), not partial or hidden ones', async () => {
    const english = context('en');
    expect((await run('list_files', {}, english)).content).toBe("There are no files in this chat's file area yet");
    await run('write_file', { name: 'b.csv', content: 'x,y' }, english);
    await run('write_file', { name: 'a.md', content: '# a' }, english);
    writeFileSync(path.join(sandboxRoot(english), '.abc.partial'), 'x');
    const listed = await run('list_files', {}, english);
    expect(listed.content).toMatch(/^Files in this chat's file area \(2\):\n- a\.md \(3 B, \d{4}-\d\d-\d\d \d\d:\d\d UTC\)\n- b\.csv \(3 B, /);
  });
});

describe('sanitizeFileName', () => {
  const cases: [string, string][] = [
    ['สรุป ราคาทอง.md', 'สรุป ราคาทอง.md'],
    ['..hidden.txt', 'hidden.txt'],
    ['a/b\\c.md', 'a_b_c.md'],
    ['bad\u0000name\u200b.txt', 'badname.txt'],
    ['Report.MD', 'Report.md'],
    ['<script>.html', '_script_.html'],
    ['noext', 'noext.txt'],
  ];
  it.each(cases)('%s → %s', (input, expected) => {
    expect(sanitizeFileName(input)).toMatchObject({ ok: true, name: expected });
  });

  it('caps the length and refuses other formats', () => {
    const long = sanitizeFileName(`${'ก'.repeat(300)}.md`);
    expect(long.ok && Array.from(long.name).length).toBe(103);
    expect(sanitizeFileName('photo.png')).toEqual({ ok: false, problem: 'format' });
  });
});
