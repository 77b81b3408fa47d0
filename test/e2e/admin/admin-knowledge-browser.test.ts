import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateChat, textMessageUpdate } from '../../fakes/telegram/index.js';
import { browserPresent, screenshotPath, useBrowser } from '../../support/browser.js';
import { makeDocx, makePagesPdf } from '../../support/knowledge/documents.js';
import { renderTextImage } from '../../support/text-images.js';
import { somchai, startAdminBrowserWorld, type AdminBrowserWorld } from './admin-browser-world.js';

// Knowledge bases from the admin page in chromium, end to end: a bot admin signs in from a Telegram /web link,
// creates a base, drops a Thai DOCX on the page and picks a scanned Thai PDF (read by OCR), sees both listed, binds
// the base to the private chat, and a question in Telegram then brings the PDF's passage to the model. A 200 MB file is
// refused in Thai — by the page before it is sent, and by the server, cut off while it streams, when the page has no
// script — and nothing of it is stored.

const chromiumPresent = browserPresent();
const pdfPages = [['คู่มือสมาชิกร้านกาแฟแสงเช้า', 'สมัครสมาชิกได้ที่หน้าร้านทุกสาขา'].join('\n'), ['สิทธิพิเศษของสมาชิก', 'สมาชิกได้รับส่วนลดสิบห้าเปอร์เซ็นต์ทุกวันพุธ'].join('\n')];
const docxParagraphs = ['ระเบียบการลาของพนักงาน', 'พนักงานลาพักร้อนได้ปีละสิบวัน โดยแจ้งหัวหน้าล่วงหน้าสามวัน'];

let world: AdminBrowserWorld;
let folder: string;
beforeAll(async () => {
  if (!chromiumPresent) return;
  world = await startAdminBrowserWorld();
  folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-admin-files-'));
});
afterAll(async () => {
  await world?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

async function signIn(page: Page): Promise<void> {
  await page.goto(await world.askForLink(somchai));
  await page.getByRole('button', { name: 'เข้าสู่ระบบ' }).click();
  await page.getByRole('heading', { name: 'ภาพรวมและสถานะ' }).waitFor();
}

/** Drops a file on the page's drop zone, as a file dragged from the desktop arrives. */
async function dropFile(page: Page, name: string, bytes: Uint8Array, type: string): Promise<void> {
  // A string: the project's TypeScript has no DOM types (the code runs in the page).
  const transfer = await page.evaluateHandle(`(() => {
    const binary = atob(${JSON.stringify(Buffer.from(bytes).toString('base64'))});
    const data = Uint8Array.from(binary, (character) => character.charCodeAt(0));
    const dropped = new DataTransfer();
    dropped.items.add(new File([data], ${JSON.stringify(name)}, { type: ${JSON.stringify(type)} }));
    return dropped;
  })()`);
  await page.dispatchEvent('#drop-zone', 'drop', { dataTransfer: transfer });
}

describe.skipIf(!chromiumPresent)('knowledge bases on the admin page in chromium', () => {
  const browser = useBrowser();
  const direct = privateChat(somchai);

  it('uploads a Thai DOCX by drag and drop and a scanned Thai PDF, and a chat question then retrieves the PDF’s passage', async () => {
    // A chat the bot has spoken in: the page offers its space for a new knowledge base.
    await world.harness.deliver(textMessageUpdate({ chat: direct, from: somchai, text: 'สวัสดี' }));
    const page = await browser.newPage();
    await signIn(page);
    await page.goto(`${world.baseUrl}/admin/kb`);
    await page.locator('#kb-create-form input[name="name"]').fill('คู่มือร้าน');
    await page.locator('#kb-space').selectOption(`telegram:${somchai.id}`);
    await page.locator('#kb-create-form button[type="submit"]').click();
    // Created: its own page, with the notice.
    await page.locator('#upload-form').waitFor();
    expect(await page.locator('.notice').first().textContent()).toContain('คู่มือร้าน');

    await dropFile(page, 'ระเบียบการลา.docx', await makeDocx(docxParagraphs), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    const pdfPath = path.join(folder, 'คู่มือสมาชิก.pdf');
    writeFileSync(pdfPath, await makePagesPdf(await Promise.all(pdfPages.map((text) => renderTextImage({ text })))));
    await page.locator('#upload-files').setInputFiles(pdfPath);
    await page.locator('#upload-submit').click();
    await page.locator('#upload-list li.upload[data-state="done"]').nth(1).waitFor({ timeout: 120_000 });
    const statuses = await page.locator('#upload-list .upload-status').allTextContents();
    expect(statuses.join('\n')).toContain('ระเบียบการลา');
    expect(statuses.join('\n')).toContain('คู่มือสมาชิก.pdf');
    await page.screenshot({ path: screenshotPath('admin-kb-uploaded'), fullPage: true });

    await page.reload();
    const documents = await page.locator('#kb-documents tr[data-document]').allTextContents();
    expect(documents.join('\n')).toContain('คู่มือสมาชิก.pdf');
    expect(documents.join('\n')).toContain('ระเบียบการลา');

    await page.locator('#kb-search-query').fill('ส่วนลดวันพุธ');
    await page.locator('#kb-search button[type="submit"]').click();
    await page.locator('#kb-search-results li.hit').first().waitFor();
    expect(await page.locator('#kb-search-results li.hit').first().textContent()).toContain('คู่มือสมาชิก.pdf');
    await page.screenshot({ path: screenshotPath('admin-kb-search'), fullPage: true });

    await page.locator('#bind-conversation').fill(`telegram:${somchai.id}`);
    await page.locator('#bind-form button.primary').click();
    await page.locator(`#binding-list li[data-conversation="telegram:${somchai.id}"]`).waitFor();
    await page.goto(`${world.baseUrl}/admin/kb`);
    await page.locator('tr[data-kb]').first().waitFor();
    await page.screenshot({ path: screenshotPath('admin-kb-list'), fullPage: true });

    const asked = world.harness.model.chatRequests.length;
    await world.harness.deliver(textMessageUpdate({ chat: direct, from: somchai, text: 'สมาชิกได้ส่วนลดวันไหน' }));
    const prompt = JSON.stringify(world.harness.model.chatRequests.slice(asked));
    expect(prompt).toContain('ส่วนลด');
    expect(prompt).toContain('คู่มือสมาชิก.pdf');
  }, 180_000);

  it('refuses a 200 MB file in Thai, before sending it and — without the page’s script — while it streams, storing nothing', async () => {
    const page = await browser.newPage();
    await signIn(page);
    await page.goto(`${world.baseUrl}/admin/kb`);
    await page.locator('tr[data-kb] a', { hasText: 'คู่มือร้าน' }).click();
    const baseUrl = page.url();
    const knowledge = world.harness.test.app.knowledge;
    const [base] = await knowledge.findKnowledgeBases('คู่มือร้าน');
    const before = (await knowledge.documents(base?.id ?? '')).length;
    const huge = path.join(folder, 'ใหญ่มาก.pdf');
    writeFileSync(huge, '');
    // Sparse: 200 MB on the page, nothing on the disk.
    truncateSync(huge, 200 * 1024 * 1024);

    await page.locator('#upload-files').setInputFiles(huge);
    await page.locator('#upload-submit').click();
    const refused = page.locator('#upload-list li.upload[data-state="failed"]');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('ใหญ่มาก.pdf');
    expect(await refused.textContent()).toMatch(/ใหญ่เกิน|เกิน/);

    const plain = await browser.newContext({});
    await plain.addCookies(await page.context().cookies());
    const withoutScript = await plain.browser()?.newContext({ javaScriptEnabled: false, locale: 'th-TH' });
    if (!withoutScript) throw new Error('no context');
    await withoutScript.addCookies(await page.context().cookies());
    const noScript = await withoutScript.newPage();
    await noScript.goto(baseUrl);
    await noScript.locator('#upload-files').setInputFiles(huge);
    const answer = noScript.waitForResponse((response) => response.url().includes('/documents') && response.request().method() === 'POST');
    await noScript.locator('#upload-submit').click();
    expect((await answer).status()).toBe(413);
    await noScript.locator('main').waitFor();
    expect(await noScript.locator('main').textContent()).toMatch(/ใหญ่เกิน|เกิน/);
    await noScript.screenshot({ path: screenshotPath('admin-kb-too-large'), fullPage: true });
    await withoutScript.close();
    expect((await knowledge.documents(base?.id ?? '')).length).toBe(before);
  }, 60_000);
});
