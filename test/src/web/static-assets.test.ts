import { mkdtempSync, rmSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadStaticAssets } from '../../../src/web/static-assets.js';
import { memoryLog } from '../../support/memory-log.js';

// The admin page's stylesheet and script: a copy of the bot without them (dist/ alone, as the pm2 tests run it) still
// starts, with a warning, and the pages go without style and script.

function recorder() {
  const answer = { status: 0, body: '' };
  const response = {
    writeHead: (status: number) => void (answer.status = status),
    end: (body: string | Buffer) => void (answer.body = String(body)),
  } as unknown as http.ServerResponse;
  return { answer, response };
}

describe('the admin page assets', () => {
  it('serves admin.css and admin.js from src/web/assets', () => {
    const assets = loadStaticAssets(memoryLog('warn').log);
    const { answer, response } = recorder();
    assets.serve('admin.css', response);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('--accent');
  });

  it('starts without them, warning once per file, and answers 404 for each', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-assets-'));
    try {
      const { log, records } = memoryLog('warn');
      const assets = loadStaticAssets(log, folder);
      expect(records.map((record) => record.file)).toEqual(['admin.css', 'admin.js']);
      const { answer, response } = recorder();
      assets.serve('admin.js', response);
      expect(answer.status).toBe(404);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
