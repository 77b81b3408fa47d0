import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserPresent, screenshotPath, useBrowser } from './browser.js';

// The browser support itself, on a page as strict as the admin pages: chromium runs the page's own script, blocks an
// inline one under the CSP, draws Thai with a Thai font, fits a phone, and reaches nothing off loopback.

const chromiumPresent = browserPresent();

const loading = 'กำลังโหลด…';
const scriptRan = 'สคริปต์จากเซิร์ฟเวอร์ทำงานแล้ว';
const inlineBlocked = 'สคริปต์ในหน้าไม่ได้ทำงาน';

// The inline script comes first: scripts run in document order, so once app.js has run the inline one has either
// run or been refused.
const page = `<!doctype html>
<html lang="th">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ทดสอบเบราว์เซอร์ของแสง</title>
</head>
<body>
<h1 id="greeting">ยินดีต้อนรับสู่หน้าผู้ดูแลระบบ</h1>
<p id="status">${loading}</p>
<p id="inline">${inlineBlocked}</p>
<script>document.getElementById('inline').textContent = 'สคริปต์ในหน้าทำงาน';</script>
<script src="/app.js"></script>
</body>
</html>`;
const script = `document.getElementById('status').textContent = '${scriptRan}';\n`;

function serve(): Promise<Server> {
  const server = createServer((request, response) => {
    if (request.url === '/app.js') {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'self'" }).end(page);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** The font families chromium drew the text under `selector` with (DevTools protocol: what it actually used). */
async function drawnFontFamilies(page: Page, selector: string): Promise<string[]> {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('DOM.enable');
  await devtools.send('CSS.enable');
  const { root } = await devtools.send('DOM.getDocument');
  const { nodeId } = await devtools.send('DOM.querySelector', { nodeId: root.nodeId, selector });
  const { fonts } = await devtools.send('CSS.getPlatformFontsForNode', { nodeId });
  await devtools.detach();
  return fonts.map((font) => font.familyName);
}

function thaiFontFamilies(): string[] {
  const listing = execFileSync('fc-list', [':lang=th', 'family'], { encoding: 'utf8' });
  return listing
    .split(/[,\n]/)
    .map((family) => family.trim())
    .filter(Boolean);
}

describe.skipIf(!chromiumPresent)('headless chromium for the admin page tests', () => {
  const browser = useBrowser();
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    server = await serve();
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("runs the page's own script and refuses an inline one under default-src 'self'", async () => {
    const page = await browser.newPage();
    // Chromium reports the refusal on the console. Promise.all keeps a load failure from leaving the wait unhandled.
    const isRefusal = (message: ConsoleMessage) => message.text().includes('Content Security Policy');
    await Promise.all([page.waitForEvent('console', { predicate: isRefusal, timeout: 10_000 }), page.goto(origin)]);
    await page.getByText(scriptRan).waitFor();
    expect(await page.locator('#inline').textContent()).toBe(inlineBlocked);
    expect(await page.evaluate('navigator.language')).toBe('th-TH');
  });

  it('draws Thai with a font that has Thai glyphs (not empty boxes)', async () => {
    const page = await browser.newPage();
    await page.goto(origin);
    await page.getByText(scriptRan).waitFor();
    const thai = thaiFontFamilies();
    // Thai only, no spaces: a space would be drawn by the page's Latin font.
    const drawn = await drawnFontFamilies(page, '#greeting');
    expect(drawn.length).toBeGreaterThan(0);
    for (const family of drawn) expect(thai).toContain(family);
    const file = screenshotPath('browser-support-desktop');
    await page.screenshot({ path: file, fullPage: true });
    expect(existsSync(file)).toBe(true);
  });

  it('opens a phone-sized window that the page fits without sideways scrolling', async () => {
    const page = await browser.newPage({ phone: true });
    await page.goto(origin);
    await page.getByText(scriptRan).waitFor();
    expect(await page.evaluate('innerWidth')).toBe(390);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: screenshotPath('browser-support-phone'), fullPage: true });
  });

  it('reaches nothing off loopback', async () => {
    const page = await browser.newPage();
    // .invalid never resolves anywhere; the proxy setting means chromium does not even look it up.
    await expect(page.goto('http://saeng.invalid/')).rejects.toThrow(/ERR_PROXY_CONNECTION_FAILED/);
  });
});
