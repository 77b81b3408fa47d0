import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleMessage } from '../../adapters/console/inbound.js';
import { consoleOwnerId } from '../../src/app.js';
import { searxngResult, startSearxngFake, type SearxngFake } from '../fakes/search/searxng-fake.js';
import { startFakeModelServer, type FakeModelServer } from '../fakes/model-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// The README promises no message text in the log at LOG_LEVEL=info (info, warnings and errors). Real turns and
// commands run through the app with a marker in everything a user or the model writes: questions, display names,
// file names, document text, KB names, tool arguments, model output, search results, an error body that echoes the
// prompt. The captured log (production's logger and redactor) must never hold the marker.

const marker = 'MKR7731ขนมชั้น';
const knowledgeBase = `คลัง${marker}`;

let model: FakeModelServer;
let searxng: SearxngFake;
let test: TestApp;
let folder: string;

beforeAll(async () => {
  model = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  searxng = await startSearxngFake({
    answer: () => [searxngResult({ url: 'https://example.org/shop', title: `${marker} ร้านขนม`, content: `${marker} ราคา 35 บาท` })],
  });
  test = createTestApp({
    modelUrl: model.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', SEARCH_PROVIDER: 'searxng', SEARXNG_URL: searxng.url, SEARCH_LLM_FILTER: 'off' },
    logLevel: 'info',
  });
  folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-log-promise-'));
});
afterAll(async () => {
  await test.close();
  await model.close();
  await searxng.close();
  rmSync(folder, { recursive: true, force: true });
});

async function say(text: string, options: { group?: boolean; mention?: boolean; attachmentPaths?: string[] } = {}): Promise<string> {
  const message = await consoleMessage({ text, userId: consoleOwnerId, userName: `สมชาย ${marker}`, ...options });
  const handled = await test.send(message);
  return handled.replies.map((reply) => reply.text).join('\n');
}

describe('no message text in the log at LOG_LEVEL=info', () => {
  it('holds for commands, turns with tools, a failing model call and group chatter', async () => {
    const file = path.join(folder, `${marker}-[click](evil.example).md`);
    writeFileSync(file, `# ${marker} เมนู\n\nขนมชั้น ${marker} ราคา 35 บาท ร้านเปิด 08:00–20:00 ทุกวัน`);
    expect(await say(`/kb create ${knowledgeBase} คำอธิบาย ${marker}`)).toContain(marker);
    expect(await say(`/kb add ${knowledgeBase}`, { attachmentPaths: [file] })).toContain('✅');
    await say(`/kb add ${knowledgeBase} ${marker} หัวข้อ\nข้อความของเอกสาร ${marker}`);
    await say(`/kb bind ${knowledgeBase}`);
    await say(`/kb search ${knowledgeBase} ${marker}`);
    await say(`/kb docs ${knowledgeBase}`);
    await say(`/kb info ${knowledgeBase}`);
    await say('/kb add ไม่มีคลังนี้' + marker);

    // A turn whose model searches the KB (with a made-up KB id too) and answers with the marker.
    model.script(
      { toolCalls: [{ name: 'query_knowledge', arguments: { action: 'query', query_text: `${marker} ราคา`, kb_ids: [`${marker}-made-up`] } }] },
      { toolCalls: [{ name: 'query_knowledge', arguments: { action: 'query', query_text: `${marker} ราคา` } }] },
      { text: `${marker} ราคา 35 บาท` },
    );
    expect(await say(`${marker} ราคาเท่าไหร่`)).toContain(marker);

    // web_search, a refused file path and an unknown tool, all carrying the marker.
    model.script(
      { toolCalls: [{ name: 'web_search', arguments: { query: `${marker} ราคา` } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: `../${marker}/secret.txt` } }] },
      { toolCalls: [{ name: `tool_${marker}`, arguments: { x: marker } }] },
      { text: `ตอบ ${marker}` },
    );
    await say(`ค้นเว็บ ${marker}`);

    // The model server fails with a body that echoes the prompt (some servers do).
    model.script({ error: { status: 500, body: { error: { code: 500, message: `failed on prompt: ${marker} ราคา`, type: 'server_error' } } } });
    await say(`${marker} อีกครั้ง`);
    model.script({ error: { status: 400, body: `bad request near "${marker}"` } });
    await say(`${marker} ครั้งที่สาม`);

    // Group chatter the bot keeps for context, then a mention; /status; /research; an unknown command.
    await say(`${marker} คุยกันในกลุ่ม`, { group: true });
    model.script({ text: `สรุป ${marker}` });
    await say(`@Saeng สรุปหน่อย ${marker}`, { group: true, mention: true });
    await say('/status');
    model.script({ text: JSON.stringify({ facts: [{ fact: `${marker} 35 บาท`, url: 'https://example.org/shop' }] }) }, { text: `${marker} สรุป [1]` });
    await say(`/research ${marker} ราคาขนม`);
    await say(`/${marker}`);

    const logged = test.logLines.join('\n');
    // The log did record these turns and commands (the test would prove nothing on an empty log).
    expect(test.logRecords.filter((record) => record.msg === 'turn').length).toBeGreaterThanOrEqual(3);
    expect(test.logRecords.some((record) => record.msg === 'knowledge: document added')).toBe(true);
    expect(test.logRecords.some((record) => record.level >= 40)).toBe(true);
    for (const done of ['web_search: results filtered', 'query_knowledge: retrieval requested', 'deep_research: finished', 'turn failed']) {
      expect(test.logRecords.map((record) => record.msg)).toContain(done);
    }
    // On failure, the lines that leak are listed.
    expect(test.logLines.filter((line) => line.includes('MKR7731'))).toEqual([]);
    expect(logged).not.toContain(marker);
  });
});
