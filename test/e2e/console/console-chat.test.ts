import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../agent/tools/tool.js';
import { createLogRedactor } from '../../../src/dlp/redact-credentials.js';
import { SqliteInboundQueue } from '../../../src/queue/sqlite-inbound-queue.js';
import { createLogger, silentLogger } from '../../../src/shared/log.js';
import { requestText, startConsoleChatRun, type ConsoleChatRun } from './console-harness.js';

// `npm run chat` as a user meets it: a status line while the turn works (naming the tool that runs), Ctrl-C that
// really stops the model request and leaves no trace in the history, log lines that never land in the middle of
// what is being typed, and `/attach` that checks the file at once.

let run: ConsoleChatRun | undefined;
let home: string | undefined;
afterEach(async () => {
  await run?.close();
  if (home) rmSync(home, { recursive: true, force: true });
  vi.unstubAllEnvs();
  run = home = undefined;
});

/** A tool that runs until the test releases it (a slow web search). */
function heldTool() {
  let started: () => void = () => undefined;
  let release: () => void = () => undefined;
  const running = new Promise<void>((resolve) => (started = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  // Named like the web search tool (there is none here: SEARCH_PROVIDER=none), so the status shows its label.
  const tool = defineTool({
    name: 'web_search',
    description: 'Search the web.',
    input: z.object({ query: z.string().min(1).max(200) }),
    execute: async () => {
      started();
      await released;
      return { ok: true, content: 'ร้านเปิด 08:00–20:00 ทุกวัน' };
    },
  });
  return { tool, running, release: () => release() };
}

const statusLines = (written: string) => written.split('\n').filter((line) => line.startsWith('กำลังคิด…'));

describe('console chat: signs of life', () => {
  it('shows a status line naming the running tool, one line per step on a pipe, cleared before the reply', async () => {
    const held = heldTool();
    run = await startConsoleChatRun({ terminal: false, extraTools: [held.tool] });
    run.fake.script({ toolCalls: [{ name: 'web_search', arguments: { query: 'ร้านเปิดกี่โมง' } }] }, { text: 'ร้านเปิดแปดโมงเช้าถึงสองทุ่มครับ' });
    run.screen.type('ร้านเปิดกี่โมง\n');
    await held.running;
    // While the tool runs: the model step's line, then the tool's, and nothing else (no line per second on a pipe).
    expect(statusLines(run.screen.written())).toEqual(['กำลังคิด…', expect.stringMatching(/^กำลังคิด… ค้นเว็บ( \(\d+ วิ\))?$/)]);
    expect(run.screen.written()).not.toContain('ร้านเปิดแปดโมง');
    held.release();
    // The reply, then the prompt again.
    await run.screen.appeared('ร้านเปิดแปดโมงเช้าถึงสองทุ่มครับ\n\n> ');
    // One more line for the answering model step, and the reply below the status lines.
    expect(statusLines(run.screen.written())).toHaveLength(3);
    expect(run.screen.written()).toMatch(/> \nกำลังคิด…\nกำลังคิด… ค้นเว็บ[^\n]*\nกำลังคิด…[^\n]*\n\nร้านเปิดแปดโมงเช้าถึงสองทุ่มครับ\n\n> $/);
  });

  it('Ctrl-C during a turn aborts the model request, answers ยกเลิกแล้ว, keeps the history and the chat; Ctrl-C at the prompt quits', async () => {
    run = await startConsoleChatRun({ terminal: true });
    const { fake, screen } = run;
    let askedFirst: () => void = () => undefined;
    const firstArrived = new Promise<void>((resolve) => (askedFirst = resolve));
    fake.script({ hang: true, text: 'ครึ่งคำตอบที่ยังไม่จบ', expect: () => askedFirst() }, { text: 'คำตอบของคำถามใหม่' });
    screen.type('คำถามที่จะยกเลิก\r');
    await firstArrived;
    // On a terminal the status line stands where the prompt was.
    await screen.appeared('กำลังคิด…');
    const beforeCancel = screen.written().length;
    screen.type('\x03');
    await fake.whenClosedEarly(1);
    await screen.appeared('ยกเลิกแล้ว', beforeCancel);
    expect(screen.written().slice(beforeCancel)).toContain('กำลังยกเลิก…');
    expect(screen.written()).not.toContain('ครึ่งคำตอบ');

    // The cancelled message counts as answered: nothing is left for the queue to run again after a restart.
    await run.test.app.inbound.idle();
    const queue = new SqliteInboundQueue({ dataDir: run.test.dataDir, dedupeTtlMs: 60_000, log: silentLogger() });
    expect(await queue.openConversations()).toEqual([]);
    queue.close();

    // The chat goes on, and the next question's request carries neither the cancelled question nor its half answer.
    screen.type('คำถามใหม่\r');
    await screen.appeared('คำตอบของคำถามใหม่');
    const sent = requestText(fake.chatRequests[1]);
    expect(sent).toContain('คำถามใหม่');
    expect(sent).not.toContain('คำถามที่จะยกเลิก');
    expect(sent).not.toContain('ครึ่งคำตอบ');
    fake.assertAllConsumed();

    screen.type('\x03');
    await run.adapter.closed;
  });

  it('Ctrl-C while the first turn waits for capability detection (a probe call) cancels at once', async () => {
    // MODEL_TOOLS=auto and a server that declares nothing: the first turn waits for one probe call, which hangs (and
    // would for ten minutes: the cancel must not wait for it).
    run = await startConsoleChatRun({ terminal: true, environment: { MODEL_TOOLS: 'auto', MODEL_TIMEOUT_MS: '600000' } });
    const { fake, screen } = run;
    let probed: () => void = () => undefined;
    const probeArrived = new Promise<void>((resolve) => (probed = resolve));
    fake.script({ hang: true, expect: () => probed() });
    screen.type('คำถามแรก\r');
    await probeArrived;
    const beforeCancel = screen.written().length;
    screen.type('\x03');
    // Answered while the probe is still hanging: the turn no longer waits for it.
    await screen.appeared('ยกเลิกแล้ว', beforeCancel);
    expect(fake.chatRequests).toHaveLength(1);
  });

  it('on a terminal the status names the tool in place; Ctrl-C while a tool runs ends the turn when the tool returns, nothing stored', async () => {
    const held = heldTool();
    run = await startConsoleChatRun({ terminal: true, extraTools: [held.tool] });
    const { fake, screen } = run;
    fake.script({ toolCalls: [{ name: 'web_search', arguments: { query: 'ราคาทอง' } }] }, { text: 'คำตอบรอบสอง' });
    screen.type('ราคาทองวันนี้\r');
    await held.running;
    await screen.appeared('กำลังคิด… ค้นเว็บ');
    // Drawn in place: no line end between the model step's status and the tool's.
    expect(screen.written()).not.toMatch(/กำลังคิด…[^\n]*\n[^\n]*กำลังคิด… ค้นเว็บ/);
    screen.type('\x03');
    await screen.appeared('กำลังยกเลิก…');
    // This tool ignores the abort: the turn stops as soon as it returns, without asking the model again.
    held.release();
    await screen.appeared('ยกเลิกแล้ว');
    expect(fake.chatRequests).toHaveLength(1);
    screen.type('อีกคำถาม\r');
    await screen.appeared('คำตอบรอบสอง');
    const sent = requestText(fake.chatRequests[1]);
    expect(sent).not.toContain('ราคาทองวันนี้');
    expect(sent).not.toContain('ร้านเปิด 08:00');
  });

  it('a log line written while the user types is printed above the prompt, and the typed text is drawn again', async () => {
    run = await startConsoleChatRun({ terminal: true });
    const { fake, screen, adapter } = run;
    screen.type('พิมพ์ค้างไว้');
    await screen.appeared('พิมพ์ค้างไว้');
    const beforeLog = screen.written().length;
    const log = createLogger({ level: 'warn', pretty: true, colorize: false, destination: adapter.logOutput, redact: createLogRedactor(['hunter2-secret']) });
    log.warn({ key: 'hunter2-secret' }, 'model server slow');
    await screen.appeared('> พิมพ์ค้างไว้', beforeLog);
    const after = screen.written().slice(beforeLog);
    // Rubbed out (cursor to column 1, clear down), the log line on its own, then the prompt and the typed text.
    expect(after.indexOf('\x1b[1G\x1b[0J')).toBe(0);
    const logAt = after.indexOf('WARN');
    expect(logAt).toBeGreaterThan(0);
    expect(after.indexOf('model server slow')).toBeGreaterThan(logAt);
    expect(after.lastIndexOf('> พิมพ์ค้างไว้')).toBeGreaterThan(after.indexOf('model server slow'));
    // Every line passed the redactor on the way.
    expect(screen.written()).not.toContain('hunter2-secret');
    // What was typed is still the line being edited: Enter sends all of it.
    fake.script({ text: 'รับทราบครับ' });
    screen.type('\r');
    await screen.appeared('รับทราบครับ');
    expect(requestText(fake.chatRequests[0])).toContain('พิมพ์ค้างไว้');
  });

  it('/attach expands ~, refuses a missing file at once in Thai, and attaches an existing one', async () => {
    home = mkdtempSync(path.join(os.tmpdir(), 'saeng-home-'));
    vi.stubEnv('HOME', home);
    mkdirSync(path.join(home, 'เอกสาร'));
    writeFileSync(path.join(home, 'เอกสาร', 'ชั่วโมงเปิด.md'), 'เปิด 08:00');
    run = await startConsoleChatRun({ terminal: false });
    const { fake, screen } = run;

    screen.type('/attach ~/ไม่มีไฟล์นี้.pdf\n');
    await screen.appeared(`ไม่พบไฟล์: ${path.join(home, 'ไม่มีไฟล์นี้.pdf')}\n`);
    screen.type('/attach ~/เอกสาร\n');
    await screen.appeared(`ไม่ใช่ไฟล์: ${path.join(home, 'เอกสาร')}`);

    const file = path.join(home, 'เอกสาร', 'ชั่วโมงเปิด.md');
    screen.type('/attach ~/เอกสาร/ชั่วโมงเปิด.md\n');
    await screen.appeared(`แนบไฟล์แล้ว: ${file}\n`);
    // Enter alone sends the checked file: it reaches the router (a file alone in a direct chat is kept for /kb add).
    screen.type('\n');
    await screen.appeared('ได้รับไฟล์ ชั่วโมงเปิด.md แล้ว');
    expect(screen.written()).not.toContain('ENOENT');
    expect(fake.chatRequests).toHaveLength(0);
  });

  it('/attach refuses a file over MAX_ATTACHMENT_BYTES before it is sent', async () => {
    home = mkdtempSync(path.join(os.tmpdir(), 'saeng-home-'));
    vi.stubEnv('HOME', home);
    writeFileSync(path.join(home, 'ใหญ่.txt'), 'x'.repeat(2048));
    run = await startConsoleChatRun({ terminal: false, maxAttachmentBytes: 1024 });
    run.screen.type('/attach ~/ใหญ่.txt\n');
    await run.screen.appeared(`ไฟล์ใหญ่เกินไป: ${path.join(home, 'ใหญ่.txt')}`);
    expect(run.screen.written()).not.toContain('แนบไฟล์แล้ว');
  });
});
