import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream';
import type { WebhookRoute } from '../shared/channel.js';

// Signed, expiring download links for files the assistant wrote, for platforms that cannot send files (LINE). Only
// with PUBLIC_BASE_URL: `GET <base>/files?f=<path>&e=<expiry>&s=<signature>` on HTTP_PORT, the signature an HMAC of
// path and expiry with a key kept in DATA_DIR. Only files inside DATA_DIR are served, after resolving links, so a
// forged or edited link reads nothing else.

export const fileLinksPath = '/files';

export interface FileLinksOptions {
  /** PUBLIC_BASE_URL, e.g. https://bot.example.com (the reverse proxy in front of HTTP_PORT). */
  baseUrl: string;
  dataDir: string;
  ttlSeconds: number;
  now?: () => number;
}

function loadKey(dataDir: string): Buffer {
  const file = path.join(dataDir, 'file-links.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32), { mode: 0o600, flag: 'wx' });
  }
  return readFileSync(file);
}

function answer(response: Parameters<WebhookRoute['handle']>[1], status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(text);
}

export class FileLinks {
  private readonly key: Buffer;
  private readonly root: string;
  private readonly now: () => number;
  readonly route: WebhookRoute;

  constructor(private readonly options: FileLinksOptions) {
    this.root = realpathSync(path.resolve(options.dataDir));
    this.key = loadKey(this.root);
    this.now = options.now ?? Date.now;
    this.route = { method: 'GET', path: fileLinksPath, handle: async (request, response) => this.serve(request.url ?? '', response) };
  }

  /** A link to a file inside DATA_DIR, valid for the configured time; undefined for any other path. */
  linkFor(filePath: string): { url: string; expiresAt: string } | undefined {
    const relative = this.inside(filePath);
    if (relative === undefined) return undefined;
    const expires = Math.floor(this.now() / 1000) + this.options.ttlSeconds;
    const query = new URLSearchParams({ f: relative, e: String(expires), s: this.sign(relative, expires) });
    let base = this.options.baseUrl;
    while (base.endsWith('/')) base = base.slice(0, -1);
    return { url: `${base}${fileLinksPath}?${query.toString()}`, expiresAt: new Date(expires * 1000).toISOString() };
  }

  private sign(relative: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${relative}\n${expires}`).digest('base64url');
  }

  /** The path relative to DATA_DIR when the real file is inside it. */
  private inside(filePath: string): string | undefined {
    let real: string;
    try {
      real = realpathSync(filePath);
    } catch {
      return undefined;
    }
    const relative = path.relative(this.root, real);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
    return relative.split(path.sep).join('/');
  }

  private serve(url: string, response: Parameters<WebhookRoute['handle']>[1]): void {
    // URLSearchParams never throws, whatever the bytes (new URL() does, on a malformed target).
    const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
    const relative = query.get('f') ?? '';
    const expires = Number(query.get('e'));
    const given = Buffer.from(query.get('s') ?? '');
    const wanted = Buffer.from(Number.isInteger(expires) ? this.sign(relative, expires) : '');
    if (relative.length > 1_000 || given.length !== wanted.length || !timingSafeEqual(given, wanted)) return answer(response, 403, 'invalid link');
    if (expires * 1000 <= this.now()) return answer(response, 410, 'this link has expired');
    // Signed by us, still resolved again: the file may have been replaced by a link since.
    const current = this.inside(path.join(this.root, ...relative.split('/')));
    if (current !== relative) return answer(response, 404, 'file not found');
    const file = path.join(this.root, ...relative.split('/'));
    const name = path.basename(file);
    let size: number;
    try {
      size = statSync(file).size;
    } catch {
      return answer(response, 404, 'file not found');
    }
    response.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': size,
      'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(name)}`,
    });
    // A read error (the file removed meanwhile) or a client gone ends the response; never an unhandled 'error'.
    pipeline(createReadStream(file), response, () => undefined);
  }
}
