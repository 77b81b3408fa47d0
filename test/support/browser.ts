import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { chromiumProgram, systemProgramPresent, thaiFontProgram } from './system-programs.js';

// Debian's chromium driven by playwright-core for the admin page tests. A test file checks
// `browserPresent()` first (a missing chromium or Thai font skips it, or fails it under CI=true), then
// `useBrowser()` inside its describe.

/** Where the run's screenshots go (gitignored): one folder at the repo root, so a person can look at them after. */
export const screenshotFolder = path.resolve(import.meta.dirname, '../../test-output/screenshots');

export const desktopViewport = { width: 1280, height: 800 } as const;
/** A common phone's CSS pixels: the admin pages must be usable on one. */
export const phoneViewport = { width: 390, height: 844 } as const;

const launchArgs = [
  // Nothing leaves loopback: every request not to loopback (which chromium never proxies) goes to a "proxy" on the
  // loopback discard port and fails there (ERR_PROXY_CONNECTION_FAILED), with no DNS lookup either. It also
  // overrides any proxy in the environment, as --no-proxy-server would.
  '--proxy-server=http://127.0.0.1:9',
  // No updates, sync or first-run traffic (playwright-core passes these too; stated so the guarantee does not rest
  // on its defaults).
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--no-default-browser-check',
  // Containers often have a small /dev/shm; chromium then crashes on big pages instead of using /tmp.
  '--disable-dev-shm-usage',
];

/**
 * Whether the browser tests can run here: chromium, and a font to draw Thai with — without any font chromium hangs
 * drawing text (an empty fontconfig, as on a bare machine), and the pages are Thai. Each one missing is the run's skip
 * line (a failure under CI=true).
 */
export function browserPresent(): boolean {
  return systemProgramPresent(chromiumProgram) && systemProgramPresent(thaiFontProgram);
}

/** Launches headless Debian chromium; the caller closes it. Throws when chromium is not installed. */
export async function openBrowser(): Promise<Browser> {
  const executablePath = chromiumProgram.locate();
  if (executablePath === undefined) throw new Error('chromium is not installed (apt-get install chromium)');
  // CI runs as root, where chromium's sandbox cannot start; the pages under test are our own.
  return chromium.launch({ executablePath, headless: true, chromiumSandbox: false, args: launchArgs });
}

export interface ContextOptions {
  /** A phone (390×844, touch, the page's meta viewport honoured) instead of a desktop window (1280×800). */
  phone?: boolean;
  /** Defaults to 'th-TH': the language an admin's browser asks for (Accept-Language, navigator.language, Intl). */
  locale?: string;
  /** Defaults to 'Asia/Bangkok', so dates the page formats read as a Thai admin would see them. */
  timezoneId?: string;
}

/** Playwright's options for a fresh context: the locale, time zone and window of `options`. */
export function contextOptions(options: ContextOptions = {}): BrowserContextOptions {
  const device: BrowserContextOptions = options.phone
    ? { viewport: phoneViewport, isMobile: true, hasTouch: true }
    : { viewport: desktopViewport, isMobile: false, hasTouch: false };
  return { ...device, locale: options.locale ?? 'th-TH', timezoneId: options.timezoneId ?? 'Asia/Bangkok' };
}

export interface BrowserFixture {
  /** The file's browser; only valid inside tests and hooks (it starts in beforeAll). */
  readonly browser: Browser;
  /** A fresh context (no cookies or storage shared with other tests), closed after the test that opened it. */
  newContext(options?: ContextOptions): Promise<BrowserContext>;
  /** A page in a fresh context of its own. */
  newPage(options?: ContextOptions): Promise<Page>;
}

/**
 * One browser for the describe block that calls this: launched in beforeAll, closed in afterAll; contexts opened
 * by a test are closed after it. Call it inside a `describe.skipIf(!chromiumPresent)` so a skip launches nothing.
 */
export function useBrowser(): BrowserFixture {
  let browser: Browser | undefined;
  const open: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await openBrowser();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((context) => context.close()));
  });
  afterAll(async () => {
    await browser?.close();
    browser = undefined;
  });

  const fixture: BrowserFixture = {
    get browser(): Browser {
      if (browser === undefined) throw new Error('the browser starts in beforeAll: use it inside a test or hook');
      return browser;
    },
    async newContext(options) {
      const context = await fixture.browser.newContext(contextOptions(options));
      open.push(context);
      return context;
    },
    async newPage(options) {
      const context = await fixture.newContext(options);
      return context.newPage();
    },
  };
  return fixture;
}

/** The path for a screenshot called `name` (`.png` added), its folder made if missing. Names should be unique per run. */
export function screenshotPath(name: string): string {
  const file = name.replace(/[^\p{L}\p{N}._-]+/gu, '-');
  mkdirSync(screenshotFolder, { recursive: true });
  return path.join(screenshotFolder, file.endsWith('.png') ? file : `${file}.png`);
}
