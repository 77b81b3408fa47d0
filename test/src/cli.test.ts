import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../fakes/model-server.js';

// The one-shot CLI as a user runs it: a real child process, talking to the fake model server on loopback.

const root = path.resolve(import.meta.dirname, '../..');
let fake: FakeModelServer;
let dataDir: string;

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true, declaredVision: false });
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-cli-'));
});
afterEach(async () => {
  await fake.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function cli(args: string[], environment: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', ...args],
      {
        cwd: root,
        env: { PATH: process.env.PATH ?? '', MODEL_BASE_URL: fake.url, MODEL_NAME: 'qwen', DATA_DIR: dataDir, MODEL_RETRIES: '0', ...environment },
        timeout: 30_000,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm run cli -- ask', () => {
  it('prints the --json document with every field, capabilities detected from the server', async () => {
    fake.script(
      { toolCalls: [{ name: 'get_time', arguments: {} }] }, // the capability probe
      { text: 'สวัสดีครับ มีอะไรให้ช่วยไหม' },
    );
    const result = await cli(['ask', 'สวัสดี', '--json']);
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(document).toMatchObject({
      admission: { kind: 'dispatch', reason: 'direct' },
      replies: [{ text: 'สวัสดีครับ มีอะไรให้ช่วยไหม', files: [] }],
      toolCalls: [],
      guards: [],
      capabilities: { tools: true, vision: false },
      rag: 'none',
    });
    fake.assertAllConsumed();
  });

  it('prints the reply as text without --json', async () => {
    fake.script({ text: 'ตอบแล้ว' });
    const result = await cli(['ask', 'ถามหน่อย'], { MODEL_TOOLS: 'off', MODEL_VISION: 'off' });
    expect(result).toMatchObject({ code: 0, stdout: 'ตอบแล้ว\n' });
  });

  it('ignores a group message that does not address the bot, says why, exits 0', async () => {
    const result = await cli(['ask', 'คุยกันเอง', '--group', '--json'], { MODEL_TOOLS: 'off', MODEL_VISION: 'off' });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ admission: { kind: 'ignore', reason: 'group-not-addressed' }, replies: [] });
    expect(fake.chatRequests).toHaveLength(0);
  });

  it('a model server that is down still gives a polite Thai reply and exit 0', async () => {
    const result = await cli(['ask', 'สวัสดี'], { MODEL_BASE_URL: 'http://127.0.0.1:9/v1', MODEL_TOOLS: 'off', MODEL_VISION: 'off' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('MODEL_BASE_URL');
  });

  it.each([
    [['ask'], 'ไม่มีข้อความที่จะถาม'],
    [['tell', 'x'], 'ไม่รู้จักคำสั่ง: tell'],
    [['ask', 'x', '--colour'], 'colour'],
    [['ask', 'x', '--attach', '/no/such/file.png'], 'อ่านไฟล์แนบไม่ได้'],
  ])('usage error %j → exit 2', async (args, message) => {
    const result = await cli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('a bad variable is not a usage error: exit 1, a plain Thai line naming it, no usage line', async () => {
    const result = await cli(['ask', 'x'], { MODEL_MAX_STEPS: 'many' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('MODEL_MAX_STEPS: ต้องเป็นจำนวนเต็มตั้งแต่ 1 ถึง 50 (ตอนนี้ตั้งไว้เป็น "many")');
    expect(result.stderr).not.toContain('usage:');
    expect(fake.requests).toHaveLength(0);
  });

  it('an unusable DATA_DIR: exit 1 naming it, nothing sent to the model', async () => {
    writeFileSync(path.join(dataDir, 'file'), 'x');
    const result = await cli(['ask', 'x'], { DATA_DIR: path.join(dataDir, 'file', 'data') });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`DATA_DIR=${path.join(dataDir, 'file', 'data')} ใช้ไม่ได้`);
    expect(fake.requests).toHaveLength(0);
    expect(result.stderr).not.toContain('usage:');
  });

  it('without --conversation each --user has a history of its own, apart from the console chat', async () => {
    const environment = { MODEL_TOOLS: 'off', MODEL_VISION: 'off' };
    const asked = (index: number) => JSON.stringify(fake.chatRequests[index]?.messages ?? []);
    fake.script({ text: 'ตอบเอ' }, { text: 'ตอบบี' }, { text: 'ตอบเอต่อ' }, { text: 'ตอบคอนโซล' });
    expect((await cli(['ask', 'คำถามแรกของเอ', '--user', 'a'], environment)).stdout).toBe('ตอบเอ\n');
    expect((await cli(['ask', 'คำถามของบี', '--user', 'b'], environment)).stdout).toBe('ตอบบี\n');
    expect((await cli(['ask', 'ถามต่อ', '--user', 'a'], environment)).stdout).toBe('ตอบเอต่อ\n');
    expect((await cli(['ask', 'ถามในคอนโซล', '--conversation', 'local'], environment)).stdout).toBe('ตอบคอนโซล\n');
    expect(asked(1)).not.toContain('คำถามแรกของเอ');
    expect(asked(2)).toContain('คำถามแรกของเอ');
    expect(asked(2)).toContain('ตอบเอ');
    expect(asked(2)).not.toContain('คำถามของบี');
    expect(asked(3)).not.toMatch(/คำถามแรกของเอ|คำถามของบี|ถามต่อ/);
    fake.assertAllConsumed();
  });

  it("the README's form pipes cleanly: `npm run -s cli --` writes only the reply (or the usage) to stdout", async () => {
    const npm = (args: string[]) =>
      new Promise<{ code: number; stdout: string }>((resolve) => {
        execFile(
          'npm',
          ['run', '-s', 'cli', '--', ...args],
          {
            cwd: root,
            env: {
              PATH: process.env.PATH ?? '',
              HOME: dataDir,
              MODEL_BASE_URL: fake.url,
              MODEL_NAME: 'qwen',
              DATA_DIR: dataDir,
              MODEL_TOOLS: 'off',
              MODEL_VISION: 'off',
            },
            timeout: 30_000,
          },
          (error, stdout) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
        );
      });
    const help = await npm(['--help']);
    expect(help).toEqual({
      code: 0,
      stdout: 'usage: npm run -s cli -- ask "<text>" [--attach PATH]… [--conversation KEY] [--user ID] [--group] [--mention] [--json]\n',
    });
    fake.script({ text: 'สวัสดีครับ' });
    const answer = await npm(['ask', 'สวัสดี', '--json']);
    expect(answer.code).toBe(0);
    expect(JSON.parse(answer.stdout)).toMatchObject({ replies: [{ text: 'สวัสดีครับ', files: [] }] });
  });

  it('runs admin commands: the console user is a global admin, --user is not', async () => {
    const environment = { MODEL_TOOLS: 'off', MODEL_VISION: 'off' };
    const created = await cli(['ask', '/kb create faq คำถามที่พบบ่อย'], environment);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('faq');
    const file = path.join(dataDir, 'hours.md');
    writeFileSync(file, '# เวลาทำการ\n\nร้านเปิดทุกวัน 08:00 ถึง 20:00 น.\n');
    const added = await cli(['ask', '/kb add faq', '--attach', file], environment);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('hours.md');
    const refused = await cli(['ask', '/kb create other', '--user', 'bob'], environment);
    expect(refused.code).toBe(0);
    expect(refused.stdout).toContain('ขออภัย');
    expect(refused.stdout).not.toContain('other');
    const admin = await cli(['ask', '/kb create other', '--user', 'bob'], { ...environment, ADMIN_IDS: 'console:bob' });
    expect(admin.stdout).toContain('other');
  });
});
