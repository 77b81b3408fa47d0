import type http from 'node:http';
import type { Html } from './html.js';

// The HTTP side of the admin pages: the headers every answer carries, cookies, and a small form body read within
// bounds. Hostile by default: a header or a body of the wrong shape is a value (undefined), never a throw.

/**
 * Only this origin's own script, style and images; no frames, no plugins, forms posted here only. Pages carry no
 * inline script or style, so nothing a document name smuggles in can run.
 */
export const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export const securityHeaders: Record<string, string> = {
  'content-security-policy': contentSecurityPolicy,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  // Not no-referrer: chromium then sends `Origin: null` with a form post, and the page could not post to itself.
  'referrer-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

export function sendHtml(response: http.ServerResponse, status: number, page: Html, headers: Record<string, string | string[]> = {}): void {
  if (response.headersSent) return void response.destroy();
  response.writeHead(status, { ...securityHeaders, 'content-type': 'text/html; charset=utf-8', ...headers });
  response.end(page.text);
}

/** 303: the browser follows with a GET (after a form post, a reload does not post again). */
export function redirect(response: http.ServerResponse, location: string, headers: Record<string, string | string[]> = {}): void {
  if (response.headersSent) return void response.destroy();
  response.writeHead(303, { ...securityHeaders, location, ...headers });
  response.end();
}

/** Cookies a request carries; malformed pairs are skipped. At most 50 looked at. */
export function cookiesOf(request: http.IncomingMessage): Map<string, string> {
  const cookies = new Map<string, string>();
  const header = request.headers.cookie;
  if (typeof header !== 'string' || header.length > 8192) return cookies;
  for (const pair of header.split(';').slice(0, 50)) {
    const equals = pair.indexOf('=');
    if (equals <= 0) continue;
    const name = pair.slice(0, equals).trim();
    const value = pair.slice(equals + 1).trim();
    if (!cookies.has(name)) cookies.set(name, value);
  }
  return cookies;
}

export interface CookieOptions {
  maxAgeSeconds?: number;
  httpOnly: boolean;
  secure: boolean;
}

/** A cookie for /admin only, never sent with a request another site starts (SameSite=Strict). */
export function cookieHeader(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, 'Path=/admin', 'SameSite=Strict'];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`);
  if (options.httpOnly) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** The largest urlencoded form the pages post (a name, a description, a token): far above any real one. */
export const maxFormBytes = 16 * 1024;

/**
 * An `application/x-www-form-urlencoded` body of at most `maxBytes`, within `timeoutMs`; undefined for anything else
 * (another type, too large, too slow, cut off). URLSearchParams never throws, whatever the bytes.
 */
export function readForm(request: http.IncomingMessage, maxBytes = maxFormBytes, timeoutMs = 10_000): Promise<URLSearchParams | undefined> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  const declared = Number(request.headers['content-length'] ?? 0);
  if (type !== 'application/x-www-form-urlencoded' || !(declared <= maxBytes)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (form: URLSearchParams | undefined) => {
      clearTimeout(timer);
      request.removeAllListeners('data');
      resolve(form);
    };
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return finish(undefined);
      chunks.push(chunk);
    });
    request.once('end', () => finish(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
    request.once('error', () => finish(undefined));
    request.once('close', () => finish(request.complete ? new URLSearchParams(Buffer.concat(chunks).toString('utf8')) : undefined));
  });
}

/**
 * Whether a request with effects came from a page of this site, by the browser's own headers (a page of another site
 * cannot forge them): `Sec-Fetch-Site` where the browser sends it (every current one), else `Origin`.
 * `publicOrigin`: PUBLIC_BASE_URL's, for a reverse proxy that rewrites Host.
 */
export function fromThisSite(request: http.IncomingMessage, publicOrigin?: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin';
  const origin = request.headers.origin;
  const host = request.headers.host;
  return origin !== undefined && (origin === publicOrigin || (typeof host === 'string' && (origin === `http://${host}` || origin === `https://${host}`)));
}
