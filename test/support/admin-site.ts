import type http from 'node:http';
import { startFakeModelServer } from '../fakes/model-server.js';
import { startHttpServer } from '../../src/http.js';
import { Metrics } from '../../src/metrics.js';
import { silentLogger } from '../../src/shared/log.js';
import type { AdminServices } from '../../src/web/pages/admin-services.js';
import { sessionCookie } from '../../src/web/admin-site.js';
import type { WebGrant } from '../../src/web/web-sessions.js';
import { createTestApp, type TestApp } from './test-app.js';
import type { App } from '../../src/app.js';

// A whole app with its HTTP server and the admin page on a loopback port, for the admin page's HTTP tests: log in
// as any grant without the chat (the chat's `/web` is tested on its own), then request pages as that browser would.

export interface AdminSiteWorld {
  testApp: TestApp;
  baseUrl: string;
  /** A signed-in browser's cookie and the page's CSRF token. */
  logIn(grant: Partial<WebGrant>): Promise<AdminBrowser>;
  close(): Promise<void>;
}

export interface AdminBrowser {
  cookie: string;
  csrfToken: string;
  /** A GET (redirects not followed) with the session cookie. */
  get(path: string): Promise<Response>;
  /** A same-origin form post with the session cookie and, unless `csrf` is given, the page's token. */
  post(path: string, fields: Record<string, string>, options?: { csrf?: string; headers?: Record<string, string> }): Promise<Response>;
}

export const globalGrant: WebGrant = { adminId: 'telegram:1001', name: 'Somchai', scope: { kind: 'global' }, language: 'th' };

type RunningServices = Pick<AdminServices, 'readiness' | 'guardCounts' | 'stillSpaceAdmin' | 'model'>;

/** The app's admin site on the bot's HTTP server at a free loopback port, as src/service.ts serves it; `/web` links point there. */
export async function serveAdminSite(app: App, services: Partial<RunningServices> = {}): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const admin = app.web.site({
    readiness: async () => ({
      ready: true,
      detail: {
        modelServer: { reachable: true, server: 'llama.cpp' },
        platforms: { telegram: 'running' },
        stores: { state: true, knowledge: true, inbound: true },
        disk: { freeBytes: 12 * 1024 ** 3, enough: true },
        ocr: { available: true },
        queue: { pending: 0, oldestPendingAgeSeconds: 0 },
      },
    }),
    guardCounts: async () => [],
    stillSpaceAdmin: async () => undefined,
    model: async () => ({ model: 'test-model', server: 'llama.cpp', tools: true, vision: false, toolsSource: 'probe', visionSource: 'config' }),
    ...services,
  });
  const server: http.Server = await startHttpServer({ port: 0, metrics: new Metrics(), log: silentLogger(), admin });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  app.web.listening(baseUrl);
  return {
    baseUrl,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function startAdminSite(options: { environment?: Record<string, string>; services?: Partial<RunningServices> } = {}): Promise<AdminSiteWorld> {
  const model = await startFakeModelServer();
  const testApp = createTestApp({ modelUrl: model.url, environment: options.environment });
  const { app } = testApp;
  const served = await serveAdminSite(app, options.services);
  const { baseUrl } = served;
  const sameOrigin = { origin: baseUrl, 'sec-fetch-site': 'same-origin' };
  return {
    testApp,
    baseUrl,
    logIn: async (grant) => {
      const token = await app.web.sessions.issueLoginToken({ ...globalGrant, ...grant });
      const answer = await fetch(`${baseUrl}/admin/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { ...sameOrigin, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token }).toString(),
      });
      const setCookie = answer.headers.get('set-cookie') ?? '';
      const cookie = setCookie.split(';')[0] ?? '';
      if (!cookie.startsWith(`${sessionCookie}=`)) throw new Error(`log-in failed: ${answer.status}`);
      const session = await app.web.sessions.sessionOf(cookie.slice(sessionCookie.length + 1));
      if (!session) throw new Error('no session after log-in');
      const get = (path: string) => fetch(`${baseUrl}${path}`, { redirect: 'manual', headers: { cookie } });
      const post = (path: string, fields: Record<string, string>, postOptions: { csrf?: string; headers?: Record<string, string> } = {}) =>
        fetch(`${baseUrl}${path}`, {
          method: 'POST',
          redirect: 'manual',
          headers: { ...sameOrigin, cookie, 'content-type': 'application/x-www-form-urlencoded', ...postOptions.headers },
          body: new URLSearchParams({ csrf: postOptions.csrf ?? session.csrfToken, ...fields }).toString(),
        });
      return { cookie, csrfToken: session.csrfToken, get, post };
    },
    close: async () => {
      await served.close();
      await testApp.close();
      await model.close();
    },
  };
}

/** A `/web` link in a message the bot sent, pointing at a loopback admin site. */
export const webLinkPattern = /http:\/\/127\.0\.0\.1:\d{1,5}\/admin\/login\?t=[\w-]{43}/;

/** Opens a `/web` link as its button does (a same-origin POST of the token): the answer's status, session cookie and origin. */
export async function openWebLink(link: string): Promise<{ status: number; cookie: string; origin: string }> {
  const token = new URL(link).searchParams.get('t') ?? '';
  const origin = new URL(link).origin;
  const answer = await fetch(`${origin}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token }).toString(),
  });
  return { status: answer.status, cookie: (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '', origin };
}
