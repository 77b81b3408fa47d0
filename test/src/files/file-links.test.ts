import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileLinks } from '../../../src/files/file-links.js';
import { startHttpServer } from '../../../src/http.js';
import { Metrics } from '../../../src/metrics.js';
import { silentLogger } from '../../../src/shared/log.js';

// Signed download links over the real HTTP server: a link fetches its file; an edited, expired or outside link
// fetches nothing.

let root: string;
let dataDir: string;
let server: Server;
let origin: string;
let now: number;
let links: FileLinks;

beforeEach(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'saeng-links-'));
  dataDir = path.join(root, 'data');
  mkdirSync(path.join(dataDir, 'files', 'line-U1'), { recursive: true });
  writeFileSync(path.join(dataDir, 'files', 'line-U1', 'สรุป.csv'), 'ชื่อ,ราคา\nกาแฟ,45\n');
  writeFileSync(path.join(root, 'secret.txt'), 'not for download');
  now = Date.UTC(2026, 11, 1, 3, 0, 0);
  links = new FileLinks({ baseUrl: 'https://bot.example.com/', dataDir, ttlSeconds: 3600, now: () => now });
  server = await startHttpServer({
    port: 0,
    metrics: new Metrics(),
    log: silentLogger(),
    routes: [links.route],
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(root, { recursive: true, force: true });
});

/** The link's path and query against the local server (the public base is the proxy's). */
const local = (url: string) => fetch(`${origin}${new URL(url).pathname}${new URL(url).search}`);

describe('FileLinks', () => {
  it('serves a file inside DATA_DIR by its signed link, until the link expires', async () => {
    const link = links.linkFor(path.join(dataDir, 'files', 'line-U1', 'สรุป.csv'));
    expect(link?.url.startsWith('https://bot.example.com/files?f=')).toBe(true);
    expect(link?.expiresAt).toBe('2026-12-01T04:00:00.000Z');
    const response = await local(link?.url ?? '');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('ชื่อ,ราคา\nกาแฟ,45\n');
    expect(response.headers.get('content-disposition')).toContain(encodeURIComponent('สรุป.csv'));
    now += 3600_000;
    expect((await local(link?.url ?? '')).status).toBe(410);
  });

  it('refuses an edited link and makes none for a file outside DATA_DIR or reached by a link out of it', async () => {
    const link = new URL(links.linkFor(path.join(dataDir, 'files', 'line-U1', 'สรุป.csv'))?.url ?? '');
    link.searchParams.set('f', '../secret.txt');
    expect((await local(link.toString())).status).toBe(403);
    const longer = new URL(link);
    longer.searchParams.set('e', String(Number(longer.searchParams.get('e')) + 86_400));
    expect((await local(longer.toString())).status).toBe(403);
    expect(links.linkFor(path.join(root, 'secret.txt'))).toBeUndefined();
    symlinkSync(path.join(root, 'secret.txt'), path.join(dataDir, 'files', 'line-U1', 'escape.txt'));
    expect(links.linkFor(path.join(dataDir, 'files', 'line-U1', 'escape.txt'))).toBeUndefined();
  });

  it('keeps the path of a base URL, so each process behind one proxy can have its own (README: several processes)', async () => {
    const second = new FileLinks({ baseUrl: 'https://bot.example.com/p2/', dataDir, ttlSeconds: 3600, now: () => now });
    const link = second.linkFor(path.join(dataDir, 'files', 'line-U1', 'สรุป.csv'));
    expect(link?.url.startsWith('https://bot.example.com/p2/files?f=')).toBe(true);
    // The proxy strips /p2 on its way to that process's HTTP_PORT.
    const stripped = new URL(link?.url ?? '');
    expect((await fetch(`${origin}${stripped.pathname.replace(/^\/p2/, '')}${stripped.search}`)).status).toBe(200);
  });
});
