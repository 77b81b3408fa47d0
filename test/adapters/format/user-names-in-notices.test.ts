import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderWhole } from './by-platform.js';
import { renderTerminalText } from '../../../adapters/console/render.js';
import { fileKeptText } from '../../../src/pipeline/router.js';
import type { Attachment } from '../../../src/shared/types.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// Names users chose (file names, KB names, document titles, command names) reach the bot's own notices. Each is
// escaped where it is put into the notice's Markdown, so every platform's renderer shows it as typed: no live link,
// no bold or italics the sender wrote.

const link = '[click](https://evil.example/x)';
const emphasis = '**ด่วน**_ลับ_';

let model: FakeModelServer;
let test: TestApp;
let folder: string;
beforeAll(async () => {
  model = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  test = createTestApp({ modelUrl: model.url });
  folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-names-'));
});
afterAll(async () => {
  await test.close();
  await model.close();
  rmSync(folder, { recursive: true, force: true });
});

const document = (name: string): Attachment => ({
  kind: 'file',
  mime: 'application/pdf',
  name,
  size: 1000,
  reference: { kind: 'platform-file', id: 'f1' },
});

/** The notices, made by the real code paths of the app. */
async function notices(): Promise<Record<string, string>> {
  // A file alone in a direct chat: "got <names>" (the router's queued path; its text comes from here).
  const fileOnly = fileKeptText([document(`${link}.pdf`)], 'th');
  // /kb add of a file whose name is a link and whose first line (its title, typed) is Markdown emphasis.
  await test.ask('/kb create คู่มือ');
  const file = path.join(folder, '[click](evil.example).md');
  writeFileSync(file, 'เนื้อหาคู่มือ ร้านเปิด 08:00–20:00 ทุกวัน');
  const added = await test.ask('/kb add คู่มือ', { attachmentPaths: [file] });
  const typed = await test.ask(`/kb add คู่มือ ${emphasis} ${link}\nร้านปิดวันจันทร์`);
  // The same content again: the duplicate notice quotes the stored title.
  const duplicate = await test.ask(`/kb add คู่มือ ${emphasis} ${link}\nร้านปิดวันจันทร์`);
  const unknown = await test.ask('/nope_x_');
  const text = (handled: { replies: { text: string }[] }) => handled.replies.map((reply) => reply.text).join('\n');
  return { fileOnly, added: text(added), typed: text(typed), duplicate: text(duplicate), unknown: text(unknown) };
}

describe('user-provided names in notices render as text on every platform', () => {
  let made: Record<string, string>;
  beforeAll(async () => {
    made = await notices();
  });

  it('the notices quote the names (escaped in their Markdown)', () => {
    expect(made.fileOnly).toContain('\\[click\\](https\\://evil.example/x).pdf');
    expect(made.added).toContain('\\[click\\](evil.example).md');
    expect(made.typed).toContain('\\*\\*ด่วน\\*\\*\\_ลับ\\_');
    expect(made.duplicate).toContain('มีเอกสารเนื้อหาเดียวกันอยู่แล้ว');
    expect(made.duplicate).toContain('\\[click\\]');
    expect(made.unknown).toContain('/nope\\_x\\_');
  });

  it.each(['fileOnly', 'added', 'typed', 'duplicate', 'unknown'])('%s: Telegram HTML has no link and no bold/italic the user wrote', (key) => {
    const html = renderWhole(made[key] ?? '', 'telegram');
    // A bare URL may become a link to itself; never a link whose text hides its target.
    for (const anchor of html.matchAll(/<a href="([^"]*)">([^<]*)<\/a>/g)) expect(anchor[2]).toBe(anchor[1]);
    expect(html).not.toContain('>click</a>');
    expect(html).not.toMatch(/<b>ด่วน<\/b>|<i>ลับ<\/i>/);
    if (key === 'fileOnly') expect(html).toContain(`${link}.pdf`);
    if (key === 'typed') expect(html).toContain(emphasis);
    if (key === 'unknown') expect(html).toContain('/nope_x_');
  });

  it.each(['fileOnly', 'added', 'typed', 'duplicate', 'unknown'])('%s: Discord Markdown keeps the name escaped', (key) => {
    const markdown = renderWhole(made[key] ?? '', 'discord');
    expect(markdown).not.toContain('[click](');
    expect(markdown).not.toMatch(/(?<!\\)\*\*ด่วน(?<!\\)\*\*/);
    if (key === 'fileOnly') expect(markdown).toContain('\\[click\\](https://evil.example/x)');
  });

  it.each(['fileOnly', 'added', 'typed', 'duplicate', 'unknown'])('%s: LINE text and the console show the name as typed', (key) => {
    const line = renderWhole(made[key] ?? '', 'line');
    const terminal = renderTerminalText(made[key] ?? '', { color: false });
    for (const shown of [line, terminal]) {
      // A rendered link would read "click (https://…)" or lose its brackets.
      expect(shown).not.toContain('click (https://');
      if (key === 'fileOnly') expect(shown).toContain(`${link}.pdf`);
      if (key === 'typed') expect(shown).toContain(emphasis);
      if (key === 'unknown') expect(shown).toContain('/nope_x_');
    }
  });
});
