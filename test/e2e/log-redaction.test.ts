import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineTool } from '../../agent/tools/tool.js';
import { dlpNotice } from '../../src/dlp/scan.js';
import { startFakeModelServer, type FakeModelServer } from '../fakes/model-server.js';
import { fake as fakeToken, randomText } from '../support/fake-tokens.js';
import { createTestApp, lookupTool, type TestApp } from '../support/test-app.js';

// No secret in any log line: real turns through the real app, whose logger is built as in production (the DLP
// credential shapes plus this app's configured secrets). Every line the app writes is captured and checked, and
// the lines that tell what went wrong are still there.

const apiKey = `saeng-local-${randomText(24, 301)}`; // MODEL_API_KEY: no credential shape, only its exact value
const botToken = fakeToken.telegramBot();
const otherBotToken = `8123456789:AA${randomText(33, 302)}`; // not configured: found by its URL path
const credentials = {
  openai: fakeToken.openaiProject(),
  github: fakeToken.githubClassic(),
  fineGrained: fakeToken.githubFineGrained(),
  aws: fakeToken.awsKeyId(),
  slack: fakeToken.slackBot(),
  jwt: fakeToken.jwt(),
};
const secrets = [apiKey, botToken, otherBotToken, ...Object.values(credentials)];
const environment = { MODEL_TOOLS: 'on', MODEL_VISION: 'off', MODEL_API_KEY: apiKey, TELEGRAM_BOT_TOKEN: botToken };

let fake: FakeModelServer;
let test: TestApp;
let toolResult: string;

const fetchConfigTool = defineTool({
  name: 'fetch_config',
  description: 'Reads the remote configuration.',
  input: z.object({ name: z.string().min(1).max(50) }),
  execute: async (input, context) => {
    context.log.warn({ upstream: `https://hooks.example.test/v1?token=${credentials.slack}` }, 'fetch_config: upstream warning');
    throw new Error(`upstream rejected ${input.name}: token ${credentials.github} (aws ${credentials.aws})`);
  },
});

function expectNoSecretIn(lines: readonly string[]): void {
  expect(lines.length).toBeGreaterThan(0);
  for (const secret of secrets) expect(lines.filter((line) => line.includes(secret))).toEqual([]);
}

beforeEach(async () => {
  toolResult = '';
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  test = createTestApp({
    modelUrl: fake.url,
    environment,
    extraTools: [lookupTool(() => toolResult), fetchConfigTool],
    now: () => new Date('2026-11-29T04:00:00Z'),
    logLevel: 'debug',
  });
});
afterEach(async () => {
  await test.close();
  await fake.close();
});

describe('log lines of real turns carry no secret', () => {
  it('a model-server 500 whose body echoes the API key, a credential and bot URLs: the turn-failed line is there, redacted', async () => {
    const message = `invalid api key ${apiKey} (Bearer ${credentials.github}); /file/bot${otherBotToken}/a.jpg; /bot${botToken}/getMe`;
    fake.script({ error: { status: 500, body: { error: { code: 500, message, type: 'server_error' } } } });
    const handled = await test.ask('สวัสดีค่ะ');

    expect(handled.replies).toHaveLength(1);
    for (const secret of secrets) expect(handled.replies[0]?.text).not.toContain(secret);
    // The error line names the kind; the server's body (which may echo the prompt) is only in the debug detail.
    expect(test.logRecords.find((record) => record.msg === 'turn failed')).toMatchObject({ level: 50, kind: 'server-error', status: 500 });
    const failed = test.logRecords.find((record) => record.msg === 'turn failed: detail');
    expect(failed?.level).toBe(20);
    expect(failed?.error).toEqual(
      expect.stringContaining(
        'invalid api key [redacted:configured-secret] (Bearer [redacted:github-token]); /file/bot[redacted:telegram-bot-token]/a.jpg; /bot[redacted:configured-secret]/getMe',
      ),
    );
    expectNoSecretIn(test.logLines);
  });

  it('a tool that logs a credential and throws one: the tool lines are there, redacted', async () => {
    fake.script({ toolCalls: [{ name: 'fetch_config', arguments: { name: 'prod' } }] }, { text: 'ขออภัยค่ะ ดึงค่าตั้งค่าไม่ได้' });
    const handled = await test.ask('ค่าตั้งค่าของ prod คืออะไร');

    expect(handled.replies[0]?.text).toContain('ขออภัยค่ะ');
    expect(test.logRecords.find((record) => record.msg === 'fetch_config: upstream warning')?.upstream).toBe(
      'https://hooks.example.test/v1?token=[redacted:slack-token]',
    );
    expect(test.logRecords.find((record) => record.msg === 'tool threw')?.error).toBe('Error');
    expect(test.logRecords.find((record) => record.msg === 'tool threw: detail')?.error).toEqual(
      expect.stringContaining('token [redacted:github-token] (aws [redacted:aws-access-key])'),
    );
    expectNoSecretIn(test.logLines);
  });

  it('an answer that echoes credentials: DLP blocks the reply, and the turn and block lines hold no secret', async () => {
    toolResult = `GITHUB_TOKEN=${credentials.fineGrained}\nSESSION=${credentials.jwt}\nMODEL_API_KEY=${apiKey}`;
    fake.script({ toolCalls: [{ name: 'lookup', arguments: { query: 'config' } }] }, { text: `ได้เลยค่ะ: ${credentials.fineGrained} และ ${apiKey}` });
    const handled = await test.ask('ค่าในไฟล์ตั้งค่าคืออะไร');

    expect(handled.replies).toEqual([expect.objectContaining({ text: dlpNotice('th') })]);
    expect(test.logRecords.find((record) => record.msg === 'turn')).toMatchObject({ guards: expect.arrayContaining(['dlp:block']) });
    expectNoSecretIn(test.logLines);
  });
});

describe('npm run cli: the production logger on stderr', () => {
  it('a model-server 500 echoing the API key and a credential reaches stderr redacted', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-log-redaction-'));
    const message = `invalid api key ${apiKey}; upstream: Bearer ${credentials.openai}`;
    fake.script({ error: { status: 500, body: { error: { code: 500, message, type: 'server_error' } } } });
    const root = path.resolve(import.meta.dirname, '../..');
    const env = {
      PATH: process.env.PATH ?? '',
      MODEL_BASE_URL: fake.url,
      MODEL_NAME: 'qwen',
      MODEL_RETRIES: '0',
      DATA_DIR: dataDir,
      ...environment,
      LOG_LEVEL: 'debug',
    };
    const run = await new Promise<{ stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'ask', 'สวัสดีค่ะ'], { cwd: root, env, timeout: 30_000 }, (_error, stdout, stderr) =>
        resolve({ stdout, stderr }),
      );
    });
    rmSync(dataDir, { recursive: true, force: true });

    expect(run.stderr).toContain('"msg":"turn failed"');
    expect(run.stderr).toContain('"msg":"turn failed: detail"');
    expect(run.stderr).toContain('invalid api key [redacted:configured-secret]; upstream: Bearer [redacted:openai-key]');
    for (const secret of secrets) expect(`${run.stdout}${run.stderr}`).not.toContain(secret);
  });
});
