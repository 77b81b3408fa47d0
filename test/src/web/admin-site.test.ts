import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie } from '../../../src/web/admin-site.js';
import { globalGrant, startAdminSite, type AdminSiteWorld } from '../../support/admin-site.js';

// The admin page's door: a one-time link, a session cookie with the right flags, CSRF and cross-site refusals,
// the security headers on every page, and what a request of the wrong shape gets. Over HTTP, against the whole app.

let world: AdminSiteWorld;
beforeAll(async () => {
  world = await startAdminSite();
});
afterAll(async () => world.close());

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function postLogin(token: string, headers: Record<string, string> = { origin: world.baseUrl, 'sec-fetch-site': 'same-origin' }) {
  return fetch(`${world.baseUrl}/admin/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: form({ token }),
  });
}

describe('admin page log-in', () => {
  it('shows only a button when the link is opened (a preview spends nothing), then spends the token once', async () => {
    const token = await world.testApp.app.web.sessions.issueLoginToken(globalGrant);
    for (let preview = 0; preview < 2; preview++) {
      const page = await fetch(`${world.baseUrl}/admin/login?t=${token}`);
      expect(page.status).toBe(200);
      const text = await page.text();
      expect(text).toContain('เข้าสู่ระบบ');
      expect(text).toContain(`value="${token}"`);
    }
    const first = await postLogin(token);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/admin');
    const cookie = first.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^${sessionCookie}=[\\w-]{43}; Path=/admin; SameSite=Strict; Max-Age=\\d+; HttpOnly$`));
    const again = await postLogin(token);
    expect(again.status).toBe(403);
    expect(await again.text()).toContain('ลิงก์นี้ใช้ไม่ได้แล้ว');
  });

  it('refuses an expired, unknown or malformed token, and a log-in posted from another site', async () => {
    for (const token of ['', 'x'.repeat(43), 'not a token', '\u0000'.repeat(5000)]) expect((await postLogin(token)).status).toBe(403);
    const token = await world.testApp.app.web.sessions.issueLoginToken(globalGrant);
    expect((await postLogin(token, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    // Still unspent: the cross-site post did not use it up.
    expect((await postLogin(token)).status).toBe(303);
  });

  it('answers a signed-out visitor in Thai, with the page’s security headers', async () => {
    const page = await fetch(`${world.baseUrl}/admin/kb`);
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('พิมพ์ /web');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a forged cookie', async () => {
    const page = await fetch(`${world.baseUrl}/admin`, { headers: { cookie: `${sessionCookie}=${'A'.repeat(43)}` } });
    expect(page.status).toBe(401);
  });
});

describe('a signed-in admin', () => {
  it('sees the overview, and a change without the page’s token or from another site is refused', async () => {
    const browser = await world.logIn({});
    const overview = await browser.get('/admin');
    expect(overview.status).toBe(200);
    const text = await overview.text();
    expect(text).toContain('ภาพรวมและสถานะ');
    expect(text).toContain('test-model');
    expect((await browser.post('/admin/sessions/logout-all', {}, { csrf: 'wrong' })).status).toBe(403);
    expect((await browser.post('/admin/sessions/logout-all', {}, { headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } })).status).toBe(
      403,
    );
    // Still signed in.
    expect((await browser.get('/admin')).status).toBe(200);
  });

  it('logs out everywhere, and the audit log says who did it', async () => {
    const one = await world.logIn({ adminId: 'telegram:2002', name: 'Malee' });
    const two = await world.logIn({ adminId: 'telegram:2002', name: 'Malee' });
    const sessions = await one.get('/admin/sessions');
    expect(sessions.status).toBe(200);
    expect(await sessions.text()).toContain('(เบราว์เซอร์นี้)');
    const out = await one.post('/admin/sessions/logout-all', {});
    expect(out.status).toBe(303);
    expect((await one.get('/admin')).status).toBe(401);
    expect((await two.get('/admin')).status).toBe(401);
    const entries = await world.testApp.app.web.sessions.list('telegram:2002');
    expect(entries).toEqual([]);
    const other = await world.logIn({});
    const audit = await (await other.get('/admin/sessions')).text();
    expect(audit).toContain('telegram:2002');
    expect(audit).toContain('logout-all');
  });

  it('switches the language by a cookie, and goes back only to an admin page', async () => {
    const browser = await world.logIn({});
    const switched = await fetch(`${world.baseUrl}/admin/language?to=en&back=${encodeURIComponent('//evil.example/admin')}`, {
      redirect: 'manual',
      headers: { cookie: browser.cookie },
    });
    expect(switched.status).toBe(303);
    expect(switched.headers.get('location')).toBe('/admin');
    const languageCookie = (switched.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const page = await fetch(`${world.baseUrl}/admin`, { headers: { cookie: `${browser.cookie}; ${languageCookie}` } });
    expect(await page.text()).toContain('Overview and health');
  });

  it('answers unknown pages and wrong methods without a stack trace', async () => {
    const browser = await world.logIn({});
    expect((await browser.get('/admin/nothing-here')).status).toBe(404);
    expect((await browser.get('/admin/static/../../package.json')).status).toBe(404);
    expect((await browser.post('/admin', {})).status).toBe(405);
    const css = await fetch(`${world.baseUrl}/admin/static/admin.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
  });
});
