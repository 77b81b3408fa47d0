import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '../../fakes/embeddings-server.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { fake as fakeToken, randomText } from '../../support/fake-tokens.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// A knowledge-base document is masked at ingest: each credential becomes `[redacted:<kind>]` before it is chunked,
// embedded or stored, so no later path (passages to the model, a remote embeddings server, /kb search) carries it.
// /kb add says how many values of which kinds were masked; a credential hidden where it cannot be masked refuses
// the document.

const githubToken = fakeToken.githubClassic();
const awsKeyId = fakeToken.awsKeyId();
const channelSecret = randomText(32, 92, '0123456789abcdef');
const document = [
  '# คู่มือ deploy ระบบร้านค้า',
  '',
  'ขั้นตอนที่ 1: ตั้งค่า GitHub Actions ให้ใช้โทเคน ' + githubToken + ' สำหรับ push image',
  `ขั้นตอนที่ 2: ใส่ AWS_ACCESS_KEY_ID=${awsKeyId} ใน secrets ของ repository`,
  `ขั้นตอนที่ 3: webhook ของ LINE ตรวจลายเซ็นด้วย ${channelSecret}`,
  'ขั้นตอนที่ 4: ร้านเปิด 08:00–20:00 ทุกวัน ตรวจ health check ที่ /healthz',
].join('\n');

let model: FakeModelServer | undefined;
let embeddings: FakeEmbeddingsServer | undefined;
let test: TestApp | undefined;
let folder: string | undefined;
afterEach(async () => {
  await test?.close();
  await model?.close();
  await embeddings?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
  test = model = embeddings = folder = undefined;
});

async function start(language: 'th' | 'en'): Promise<TestApp> {
  model = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  embeddings = await startFakeEmbeddingsServer();
  test = createTestApp({
    modelUrl: model.url,
    environment: { BOT_LANGUAGE: language, LINE_CHANNEL_SECRET: channelSecret, EMBEDDINGS_BASE_URL: embeddings.baseUrl },
    logLevel: 'info',
  });
  await test.ask('/kb create คู่มือ');
  return test;
}

function attach(name: string, text: string): string {
  folder ??= mkdtempSync(path.join(os.tmpdir(), 'saeng-kb-credentials-'));
  const file = path.join(folder, name);
  writeFileSync(file, text);
  return file;
}

/** Every text column of the stored documents and chunks (titles, file names, chunk text, index tokens). */
function storedText(dataDir: string): string {
  const database = new Database(path.join(dataDir, 'knowledge.db'), { readonly: true });
  try {
    const documents = database.prepare('SELECT title, source_name FROM documents').all() as { title: string; source_name: string }[];
    const chunks = database.prepare('SELECT text, tokens FROM chunks').all() as { text: string; tokens: string }[];
    return [...documents.flatMap((row) => [row.title, row.source_name]), ...chunks.flatMap((row) => [row.text, row.tokens])].join('\n');
  } finally {
    database.close();
  }
}

describe('/kb add masks credentials at ingest', () => {
  it('an attached file: the stored chunks and the embeddings server never see the values; the answer says so in Thai', async () => {
    const test = await start('th');
    const added = await test.ask('/kb add คู่มือ', { attachmentPaths: [attach('deploy.md', document)] });
    const reply = added.replies[0]?.text ?? '';
    expect(reply).toContain('เพิ่มแล้ว');
    expect(reply).toMatch(/ปิดบังค่าที่ดูเหมือนรหัสลับไว้ 3 ค่า \(.*github.*\)/);
    expect(reply).toContain('configured-secret ×1');

    expect(embeddings?.requests.length).toBeGreaterThan(0);
    const stored = storedText(test.dataDir);
    expect(stored).toContain('ร้านเปิด 08:00–20:00');
    expect(stored).toContain('[redacted:');
    for (const secret of [githubToken, awsKeyId, channelSecret]) {
      expect(stored).not.toContain(secret);
      expect(JSON.stringify(embeddings?.requests)).not.toContain(secret);
      expect(test.logLines.join('\n')).not.toContain(secret);
    }
    // Passages found later carry the mask, not the value.
    const [knowledgeBase] = await test.app.knowledge.findKnowledgeBases('คู่มือ');
    const hits = await test.app.knowledge.search([knowledgeBase?.id ?? ''], 'GitHub Actions โทเคน', 5);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.map((hit) => hit.text).join('\n')).toContain('[redacted:');
  });

  it('text typed after the command, whose first line (the title) carries a token: title and chunks are masked; English answer', async () => {
    const test = await start('en');
    const added = await test.ask(`/kb add คู่มือ deploy key ${githubToken}\nthe shop opens at 8 am`);
    const reply = added.replies[0]?.text ?? '';
    expect(reply).toContain('added');
    expect(reply).toContain('1 value(s) that look like secrets were masked');
    expect(storedText(test.dataDir)).not.toContain(githubToken);
  });

  it('a credential hidden by invisible characters, which cannot be masked, refuses the document and says why', async () => {
    const test = await start('th');
    const hidden = githubToken.slice(0, 12) + '\u200b' + githubToken.slice(12);
    const added = await test.ask('/kb add คู่มือ', { attachmentPaths: [attach('hidden.txt', `โทเคนสำหรับ deploy ${hidden} ใช้ใน CI`)] });
    expect(added.replies[0]?.text).toContain('ไม่ได้เพิ่ม เพราะเอกสารมีข้อมูลที่ดูเหมือนรหัสลับ');
    expect(storedText(test.dataDir)).not.toContain(githubToken.slice(12));
  });
});
