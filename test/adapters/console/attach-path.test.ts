import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkAttachment, expandHome } from '../../../adapters/console/attach-path.js';
import { consoleMessage } from '../../../adapters/console/index.js';

// `/attach <path>` reads a path as a shell would (`~` is home) and says at once, in the user's language, why a
// file cannot be attached.

let home: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'saeng-home-'));
  vi.stubEnv('HOME', home);
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(home, { recursive: true, force: true });
});

describe('/attach paths', () => {
  it('expands ~ and ~/ to the home directory; ~user and relative paths are left to the working directory', () => {
    expect(expandHome('~')).toBe(home);
    expect(expandHome('~/a/b.pdf')).toBe(path.join(home, 'a', 'b.pdf'));
    expect(expandHome('~other/x')).toBe(path.resolve('~other/x'));
    expect(expandHome('notes.md')).toBe(path.resolve('notes.md'));
  });

  it('answers what is wrong in Thai or English, and passes a readable file within the limit', async () => {
    writeFileSync(path.join(home, 'notes.md'), 'เปิด 08:00');
    await expect(checkAttachment('~/missing.pdf', { language: 'th' })).resolves.toEqual({
      ok: false,
      problem: `ไม่พบไฟล์: ${path.join(home, 'missing.pdf')}`,
    });
    await expect(checkAttachment('~/notes.md/inside', { language: 'en' })).resolves.toEqual({
      ok: false,
      problem: `File not found: ${path.join(home, 'notes.md', 'inside')}`,
    });
    await expect(checkAttachment('~', { language: 'en' })).resolves.toMatchObject({
      ok: false,
      problem: `Not a file: ${home} (only files can be attached, not folders)`,
    });
    await expect(checkAttachment('~/notes.md', { language: 'th', maxBytes: 4 })).resolves.toEqual({
      ok: false,
      problem: `ไฟล์ใหญ่เกินไป: ${path.join(home, 'notes.md')} (18 ไบต์ รับได้ไม่เกิน 4 ไบต์)`,
    });
    await expect(checkAttachment('', { language: 'th' })).resolves.toMatchObject({ ok: false, problem: expect.stringContaining('พิมพ์ /attach ตามด้วย') });
    await expect(checkAttachment('~/notes.md', { language: 'th', maxBytes: 1024 })).resolves.toEqual({ ok: true, path: path.join(home, 'notes.md') });
  });

  it('`cli --attach ~/…` (consoleMessage) expands ~ the same way', async () => {
    writeFileSync(path.join(home, 'notes.md'), 'เปิด 08:00');
    const message = await consoleMessage({ text: 'x', attachmentPaths: ['~/notes.md'], userId: 'owner' });
    expect(message.attachments[0]?.reference).toEqual({ kind: 'path', path: path.join(home, 'notes.md') });
  });
});
