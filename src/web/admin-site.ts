import { timingSafeEqual } from 'node:crypto';
import type http from 'node:http';
import { pick } from '../shared/i18n.js';
import { logFailure, type Logger } from '../shared/log.js';
import type { Language } from '../shared/types.js';
import { cookieHeader, cookiesOf, fromThisSite, readForm, redirect, sendHtml } from './admin-http.js';
import { matchPath, type AdminRequest, type AdminRoute } from './admin-route.js';
import type { AuditLog } from './audit-log.js';
import { html, type Html } from './html.js';
import { renderPage } from './layout.js';
import { loginPage } from './login-page.js';
import type { StaticAssets } from './static-assets.js';
import type { RequiredFirstField } from './multipart-upload.js';
import type { WebSession, WebSessions } from './web-sessions.js';
import { webTexts } from './web-texts.js';

// The admin web page under /admin on the bot's HTTP server (docs/architecture.md, "Admin web page"): the log-in by a
// one-time link from `/web`, the session cookie, the CSRF checks, then the pages (src/web/pages/). Every request is
// answered, whatever it carries; a page that fails is a 500 page, never a thrown exception.

export const sessionCookie = 'saeng_admin';
const languageCookie = 'saeng_lang';
const noticeCookie = 'saeng_notice';

export interface AdminSiteOptions {
  sessions: WebSessions;
  audit: AuditLog;
  routes: readonly AdminRoute[];
  assets: StaticAssets;
  /** BOT_LANGUAGE: the pages' language before a session has one. */
  language: Language;
  /** PUBLIC_BASE_URL: cookies are Secure behind https, and its origin counts as this site's. */
  publicBaseUrl?: string;
  log: Logger;
  now?: () => number;
}

export interface AdminSite {
  /** Answers a request whose path is /admin or below it. */
  handle(request: http.IncomingMessage, response: http.ServerResponse, path: string): void;
}

export function isAdminPath(path: string): boolean {
  return path === '/admin' || path.startsWith('/admin/');
}

function sameSecret(given: string | undefined, expected: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A notice cookie's text, bounded (it is ours, but a cookie jar is the client's). */
function noticeOf(cookies: Map<string, string>): string | undefined {
  const value = cookies.get(noticeCookie);
  if (!value) return undefined;
  try {
    return decodeURIComponent(value).slice(0, 500);
  } catch {
    return undefined;
  }
}

export function createAdminSite(options: AdminSiteOptions): AdminSite {
  const { sessions, log } = options;
  const now = options.now ?? Date.now;
  const secure = options.publicBaseUrl?.startsWith('https:') ?? false;
  const publicOrigin = options.publicBaseUrl ? new URL(options.publicBaseUrl).origin : undefined;
  const clearNotice = cookieHeader(noticeCookie, '', { maxAgeSeconds: 0, httpOnly: true, secure });

  const languageOf = (cookies: Map<string, string>, session?: WebSession): Language => {
    const chosen = cookies.get(languageCookie);
    return chosen === 'th' || chosen === 'en' ? chosen : (session?.language ?? options.language);
  };

  const plainPage = (
    response: http.ServerResponse,
    status: number,
    language: Language,
    title: string,
    body: Html,
    headers: Record<string, string | string[]> = {},
  ) => sendHtml(response, status, renderPage({ title, language, body }), headers);

  const message = (response: http.ServerResponse, status: number, language: Language, text: keyof typeof webTexts) =>
    plainPage(response, status, language, pick(webTexts.siteName, language), html`<p class="notice">${pick(webTexts[text], language)}</p>`);

  async function logIn(request: http.IncomingMessage, response: http.ServerResponse, language: Language): Promise<void> {
    if (!fromThisSite(request, publicOrigin)) return message(response, 403, language, 'crossSite');
    const form = await readForm(request);
    const spent = await sessions.spendLoginToken(form?.get('token') ?? '');
    if (!spent) return message(response, 403, language, 'loginRefused');
    const { session, cookie } = spent;
    log.info({ admin: session.adminId, scope: session.scope.kind }, 'admin page: signed in');
    const maxAgeSeconds = sessions.limits.absoluteMs / 1000;
    redirect(response, '/admin', { 'set-cookie': [cookieHeader(sessionCookie, cookie, { maxAgeSeconds, httpOnly: true, secure })] });
  }

  async function serve(request: http.IncomingMessage, response: http.ServerResponse, path: string): Promise<void> {
    const cookies = cookiesOf(request);
    const query = new URLSearchParams((request.url ?? '').split('?')[1] ?? '');
    const method = request.method ?? 'GET';
    if (method === 'GET' && path.startsWith('/admin/static/')) return options.assets.serve(path.slice('/admin/static/'.length), response);
    if (path === '/admin/login') {
      const language = languageOf(cookies);
      if (method === 'POST') return logIn(request, response, language);
      if (!query.get('t')) return message(response, 401, language, 'signedOut');
      // Opening the link only shows a button: a link preview fetching it (a chat app does) spends nothing.
      return plainPage(response, 200, language, pick(webTexts.loginTitle, language), loginPage(query.get('t') ?? '', language));
    }
    if (method === 'GET' && path === '/admin/language') {
      const to = query.get('to') === 'en' ? 'en' : 'th';
      const back = query.get('back') ?? '/admin';
      const safeBack = isAdminPath(back) && !back.includes('//') && !back.includes('\\') ? back : '/admin';
      return redirect(response, safeBack, { 'set-cookie': cookieHeader(languageCookie, to, { maxAgeSeconds: 365 * 86_400, httpOnly: true, secure }) });
    }
    const session = await sessions.sessionOf(cookies.get(sessionCookie));
    const language = languageOf(cookies, session);
    if (!session) return message(response, 401, language, 'signedOut');
    const route = options.routes
      .map((candidate) => ({ candidate, params: candidate.method === method ? matchPath(candidate.path, path) : undefined }))
      .find((match) => match.params);
    const isLogout = method === 'POST' && path === '/admin/logout';
    if (!route && !isLogout) return message(response, method === 'GET' ? 404 : 405, language, 'notFound');
    let form = new URLSearchParams();
    let csrfInBody: RequiredFirstField | undefined;
    if (method === 'POST') {
      const bodyKind = route?.candidate.body ?? 'form';
      const read = bodyKind === 'form' ? await readForm(request) : undefined;
      // An upload's token: admin.js sends a header, checked here; a plain form sends it as the body's first field,
      // which the route checks before it keeps any byte of a file (csrfInBody).
      const header = request.headers['x-csrf-token'];
      const inBody = bodyKind === 'self' && header === undefined;
      const token = bodyKind === 'form' ? read?.get('csrf') : header;
      if (!fromThisSite(request, publicOrigin) || (!inBody && !sameSecret(typeof token === 'string' ? token : undefined, session.csrfToken))) {
        log.warn({ path, admin: session.adminId }, 'admin page: a change without this page’s token was refused');
        return message(response, 403, language, 'crossSite');
      }
      if (bodyKind === 'form' && !read) return message(response, 400, language, 'badForm');
      form = read ?? form;
      if (inBody) csrfInBody = { name: 'csrf', accept: (value) => sameSecret(value, session.csrfToken) };
    }
    if (isLogout) {
      await sessions.end(cookies.get(sessionCookie));
      log.info({ admin: session.adminId }, 'admin page: signed out');
      return message(response, 200, language, 'signedOut');
    }
    const notice = noticeOf(cookies);
    const admin: AdminRequest = {
      request,
      response,
      session,
      language,
      path,
      query,
      params: route?.params ?? {},
      form,
      ...(csrfInBody ? { csrfInBody } : {}),
      audit: (action, detail) => options.audit.write({ at: now(), who: session.adminId, action, detail }),
      page: ({ title, current, body, status }) =>
        sendHtml(
          response,
          status ?? 200,
          renderPage({ title, language, session, current, path, body: html`${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}${body}` }),
          notice ? { 'set-cookie': clearNotice } : {},
        ),
      redirect: (to, text) =>
        redirect(
          response,
          to,
          text ? { 'set-cookie': cookieHeader(noticeCookie, encodeURIComponent(text.slice(0, 500)), { maxAgeSeconds: 60, httpOnly: true, secure }) } : {},
        ),
    };
    await route?.candidate.handle(admin);
  }

  return {
    handle: (request, response, path) => {
      serve(request, response, path).catch((error: unknown) => {
        logFailure(log, 'error', { path }, 'admin page failed', error);
        if (!response.headersSent) message(response, 500, options.language, 'failed');
        else if (!response.writableEnded) response.end();
      });
    },
  };
}
