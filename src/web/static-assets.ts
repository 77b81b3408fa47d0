import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { logFailure, type Logger } from '../shared/log.js';
import { securityHeaders } from './admin-http.js';

// The admin page's one stylesheet and one script (src/web/assets/), read once and served from memory: no CDN, it
// works offline. `npm start` runs the build in dist/, which tsc does not copy them into: they are read from src/.

export interface StaticAssets {
  serve(name: string, response: http.ServerResponse): void;
}

const types: Record<string, string> = { 'admin.css': 'text/css; charset=utf-8', 'admin.js': 'text/javascript; charset=utf-8' };

function assetsFolder(): string {
  const beside = fileURLToPath(new URL('./assets/', import.meta.url));
  return existsSync(beside) ? beside : fileURLToPath(new URL('../../../src/web/assets/', import.meta.url));
}

/**
 * Reads the assets once. One that cannot be read (a copy of dist/ without src/) is left out with a warning: the pages
 * work without style or script (plain forms), and the bot must start anyway.
 */
export function loadStaticAssets(log: Logger, folder = assetsFolder()): StaticAssets {
  const files = new Map<string, { body: Buffer; type: string; etag: string }>();
  for (const [name, type] of Object.entries(types)) {
    let body: Buffer;
    try {
      body = readFileSync(path.join(folder, name));
    } catch (error) {
      logFailure(log, 'warn', { file: name, folder }, 'admin page: an asset cannot be read; the pages go without it', error);
      continue;
    }
    files.set(name, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` });
  }
  return {
    serve: (name, response) => {
      const file = files.get(name);
      if (!file) {
        response.writeHead(404, { ...securityHeaders, 'content-type': 'text/plain; charset=utf-8' });
        response.end('not found');
        return;
      }
      response.writeHead(200, { ...securityHeaders, 'content-type': file.type, etag: file.etag, 'cache-control': 'no-cache' });
      response.end(file.body);
    },
  };
}
