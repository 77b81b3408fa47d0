import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionCookie } from '../../../src/web/admin-site.js';
import { browserPresent, screenshotPath, useBrowser } from '../../support/browser.js';
import { manee, otherGroup, somchai, startAdminBrowserWorld, teamGroup, type AdminBrowserWorld } from './admin-browser-world.js';

// The admin page in a real browser (Debian's chromium through playwright-core), logged in from the chat: a bot admin
// asks /web in a Telegram private chat, opens the link and signs in; each page renders in Thai and is saved as a
// screenshot (test-output/screenshots/); a spent or expired link and a forged cookie are refused; a form another site
// posts changes nothing; a group's administrator sees only their group.

const chromiumPresent = browserPresent();

let world: AdminBrowserWorld;
beforeAll(async () => {
  if (chromiumPresent) world = await startAdminBrowserWorld();
});
afterAll(async () => world?.close());

/** Opens a /web link and presses its button; the page after. */
async function signIn(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.getByRole('button', { name: 'เข้าสู่ระบบ' }).click();
  await page.waitForURL((url) => url.pathname === '/admin' || url.pathname === '/admin/login');
}

describe.skipIf(!chromiumPresent)('the admin page in chromium', () => {
  const browser = useBrowser();

  it('signs a bot admin in from a Telegram /web link and shows every page in Thai', async () => {
    await seedUsage(world);
    const page = await browser.newPage();
    await signIn(page, await world.askForLink(somchai));
    await page.getByRole('heading', { name: 'ภาพรวมและสถานะ' }).waitFor();
    expect(await page.locator('.who').textContent()).toContain('ผู้ดูแลระบบ (ทุกกลุ่ม)');
    await page.screenshot({ path: screenshotPath('admin-overview'), fullPage: true });
    for (const [name, heading] of [
      ['groups', 'กลุ่มและห้องแชต'],
      ['usage', 'การใช้งาน'],
      ['sessions', 'การเข้าสู่ระบบและบันทึกการเปลี่ยนแปลง'],
    ] as const) {
      await page.goto(`${world.baseUrl}/admin/${name}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toContain(heading);
      await page.screenshot({ path: screenshotPath(`admin-${name}`), fullPage: true });
    }
    const phone = await browser.newPage({ phone: true });
    await phone.context().addCookies(await page.context().cookies());
    await phone.goto(`${world.baseUrl}/admin`);
    await phone.getByRole('heading', { name: 'ภาพรวมและสถานะ' }).waitFor();
    expect(await phone.evaluate('document.documentElement.scrollWidth <= innerWidth')).toBe(true);
    await phone.screenshot({ path: screenshotPath('admin-overview-phone'), fullPage: true });
  });

  it('refuses a spent link, an expired link and a forged cookie', async () => {
    const link = await world.askForLink(somchai);
    const first = await browser.newPage();
    await signIn(first, link);
    await first.getByRole('heading', { name: 'ภาพรวมและสถานะ' }).waitFor();
    const again = await browser.newPage();
    await signIn(again, link);
    expect(await again.locator('main').textContent()).toContain('ลิงก์นี้ใช้ไม่ได้แล้ว');

    const late = await world.askForLink(somchai);
    world.advance(11 * 60_000);
    const expired = await browser.newPage();
    await signIn(expired, late);
    expect(await expired.locator('main').textContent()).toContain('ลิงก์นี้ใช้ไม่ได้แล้ว');

    const forged = await browser.newPage();
    await forged.context().addCookies([{ name: sessionCookie, value: 'A'.repeat(43), url: world.baseUrl }]);
    const answer = await forged.goto(`${world.baseUrl}/admin`);
    expect(answer?.status()).toBe(401);
    expect(await forged.locator('main').textContent()).toContain('พิมพ์ /web');
  });

  it('changes nothing when another site’s page posts a form to it, even with the admin signed in', async () => {
    const page = await browser.newPage();
    await signIn(page, await world.askForLink(somchai));
    const spaceKey = `telegram:${teamGroup.id}`;
    const before = await world.harness.test.app.storage.settings.get(spaceKey);
    const attacker = await serveAttackPage(`${world.baseUrl}/admin/groups/${encodeURIComponent(spaceKey)}/settings`);
    try {
      // Same browser context: the admin's cookie is in the jar; SameSite=Strict keeps it off this request.
      const response = page.waitForResponse((candidate) => candidate.url().includes('/settings') && candidate.request().method() === 'POST');
      await page.goto(attacker.url);
      expect([401, 403]).toContain((await response).status());
      expect(await world.harness.test.app.storage.settings.get(spaceKey)).toEqual(before);
    } finally {
      attacker.server.close();
    }
  });

  it('shows a group’s administrator only their group', async () => {
    const page = await browser.newPage();
    await signIn(page, await world.askForLink(manee, teamGroup));
    expect(await page.locator('.who').textContent()).toContain('ผู้ดูแลกลุ่ม (1 กลุ่ม)');
    await page.goto(`${world.baseUrl}/admin/groups`);
    const listed = await page.locator('#group-list [data-space]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-space')));
    expect(listed).toEqual([`telegram:${teamGroup.id}`]);
    const other = await page.goto(`${world.baseUrl}/admin/groups/${encodeURIComponent(`telegram:${otherGroup.id}`)}`);
    expect(other?.status()).toBe(404);
    await page.goto(`${world.baseUrl}/admin/groups/${encodeURIComponent(`telegram:${teamGroup.id}`)}`);
    await page.locator('#settings').waitFor();
    await page.screenshot({ path: screenshotPath('admin-group-settings'), fullPage: true });
  });
});

/** Three weeks of a busy group and a private chat, for the usage page's tables and chart. */
async function seedUsage(world: AdminBrowserWorld): Promise<void> {
  const people = [
    { spaceKey: `telegram:${teamGroup.id}`, userKey: `telegram:${manee.id}`, userName: 'มานี' },
    { spaceKey: `telegram:${teamGroup.id}`, userKey: 'telegram:503', userName: 'ปิติ' },
    { spaceKey: `telegram:${somchai.id}`, userKey: `telegram:${somchai.id}`, userName: 'สมชาย' },
  ];
  const today = Date.UTC(2026, 11, 7);
  for (let daysAgo = 0; daysAgo < 21; daysAgo++) {
    const day = new Date(today - daysAgo * 86_400_000).toISOString().slice(0, 10);
    for (const [index, person] of people.entries()) {
      const turns = ((daysAgo * 7 + index * 3) % 9) + 1;
      const counts = {
        turns,
        modelMs: turns * 8_500,
        promptTokens: turns * 2_300,
        generatedTokens: turns * 180,
        searches: turns % 3,
        ocrPages: index === 0 ? 1 : 0,
      };
      await world.harness.test.app.storage.usage.add({ day, ...person, counts });
    }
  }
}

/** A page of another origin (another loopback port) whose own script posts a form to `target` when it loads. */
async function serveAttackPage(target: string): Promise<{ server: Server; url: string }> {
  const page = `<!doctype html><html><body><form id="f" method="post" action="${target}">
<input name="setting" value="quota"><input name="value" value="1"><input name="csrf" value="guess"></form>
<script src="/go.js"></script></body></html>`;
  const server = createServer((request, response) => {
    if (request.url === '/go.js') return void response.writeHead(200, { 'content-type': 'text/javascript' }).end("document.getElementById('f').submit();");
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { server, url: `http://127.0.0.1:${address.port}/` };
}
