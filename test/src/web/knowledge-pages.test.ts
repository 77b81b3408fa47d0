import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditActions, createBase, groupSpace, lines, noticeOf, otherSpace, startKnowledgeWorld, upload } from '../../support/admin-kb.js';
import type { AdminSiteWorld } from '../../support/admin-site.js';
import { makeDocx, makePdf, utf8 } from '../../support/knowledge/documents.js';

// The knowledge-base pages over real HTTP on loopback, against the whole app: list and create, upload (the script's
// NDJSON, one file per request, and the plain form's several files), search, delete, bind and unbind, escaping, and
// the audit entry each change leaves. Who may see and change what, the limits and the token: knowledge-pages-access.

let world: AdminSiteWorld;
beforeAll(async () => {
  ({ world } = await startKnowledgeWorld());
});
afterAll(async () => world.close());

describe('the knowledge-base list', () => {
  it('creates a base with a Thai name, and refuses an invalid or duplicate name in Thai', async () => {
    const browser = await world.logIn({});
    const list = await browser.get('/admin/kb');
    expect(list.status).toBe(200);
    const form = await list.text();
    expect(form).toContain('id="kb-create-form"');
    expect(form).toContain(`<option value="${groupSpace}"`);
    const created = await browser.post('/admin/kb', { name: 'คู่มือ', description: 'คู่มือ  พนักงาน\nใหม่', space: groupSpace });
    expect(created.status).toBe(303);
    expect(noticeOf(created)).toContain('สร้างคลังความรู้ “คู่มือ” แล้ว');
    const id = (created.headers.get('location') ?? '').slice('/admin/kb/'.length);
    const stored = await world.testApp.app.knowledge.getKnowledgeBase(id);
    expect(stored).toMatchObject({ name: 'คู่มือ', description: 'คู่มือ พนักงาน ใหม่', spaceKey: groupSpace, createdBy: 'telegram:1001' });

    const invalid = await browser.post('/admin/kb', { name: 'bad name', space: groupSpace });
    expect(invalid.status).toBe(400);
    const invalidPage = await invalid.text();
    expect(invalidPage).toContain('ชื่อ “bad name” ใช้ไม่ได้');
    expect(invalidPage).toContain('value="bad name"');
    const duplicate = await browser.post('/admin/kb', { name: 'คู่มือ', space: groupSpace });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.text()).toContain(`กลุ่ม ${groupSpace} มีคลังความรู้ชื่อ “คู่มือ” อยู่แล้ว`);
    const unknownSpace = await browser.post('/admin/kb', { name: 'x1', space: 'telegram:-1009999' });
    expect(unknownSpace.status).toBe(400);
    expect((await world.testApp.app.knowledge.findKnowledgeBases('คู่มือ')).length).toBe(1);
    expect(await world.testApp.app.knowledge.findKnowledgeBases('x1')).toEqual([]);

    const listed = await (await browser.get('/admin/kb')).text();
    expect(listed).toContain(`data-space="${groupSpace}"`);
    expect(listed).toContain(`href="/admin/kb/${id}">คู่มือ</a>`);
    expect(listed).toContain('class="responsive kb-list"');
    // A bot admin sees every group's bases.
    expect(listed).toContain('ลับเฉพาะ');
    expect(await auditActions(world)).toContainEqual({ action: 'kb-create', detail: { kb: id, name: 'คู่มือ', space: groupSpace } });
  });
});

describe('documents', () => {
  it('uploads Markdown (NDJSON), then a DOCX and a text PDF in one plain form, lists them, and finds a passage with a score', async () => {
    const browser = await world.logIn({});
    const id = await createBase(browser, 'ร้านค้า');
    const markdown = await upload(
      world,
      browser,
      id,
      [{ name: 'refund.md', bytes: utf8('# การคืนเงิน\n\nลูกค้าขอคืนเงินได้ภายใน 30 วันหลังได้รับสินค้า'), type: 'text/markdown' }],
      {
        ndjson: true,
      },
    );
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get('content-type')).toContain('application/x-ndjson');
    const [result] = await lines(markdown);
    expect(result).toMatchObject({ type: 'result', ok: true });
    expect(result?.passages).toBeGreaterThan(0);
    expect(result?.text).toContain('✅ “refund.md” เพิ่มแล้ว');

    const docx = await makeDocx(['Opening hours', 'The shop opens at nine every morning.']);
    const pdf = await makePdf([['Warranty terms', 'Every kettle has a two year warranty.'], ['Page two about delivery charges.']]);
    const plain = await upload(world, browser, id, [
      { name: 'hours.docx', bytes: docx },
      { name: 'warranty.pdf', bytes: pdf, type: 'application/pdf' },
    ]);
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe(`/admin/kb/${id}`);
    expect(noticeOf(plain)).toContain('✅ “hours.docx” เพิ่มแล้ว');
    expect(noticeOf(plain)).toContain('✅ “warranty.pdf” เพิ่มแล้ว');

    const page = await (await browser.get(`/admin/kb/${id}`)).text();
    for (const title of ['refund.md', 'hours.docx', 'warranty.pdf']) expect(page).toContain(title);
    expect(page).toContain('id="kb-documents"');
    expect(page).toContain('data-label="ส่วนข้อความ"');
    // The browser test's handles: the drop zone (shown by admin.js), the file input, the progress list, the search.
    for (const handle of ['id="upload-form"', 'id="drop-zone"', 'id="upload-files"', 'id="upload-list"', 'id="kb-search"', 'id="bind-form"'])
      expect(page).toContain(handle);
    // A plain form's token is its first field, never in the URL (a proxy's access log would keep it).
    const uploadForm = page.slice(page.indexOf('id="upload-form"'), page.indexOf('</form>', page.indexOf('id="upload-form"')));
    expect(uploadForm).toContain(`action="/admin/kb/${id}/documents"`);
    expect(uploadForm.indexOf(`name="csrf" value="${browser.csrfToken}"`)).toBeGreaterThan(-1);
    expect(uploadForm.indexOf('name="csrf"')).toBeLessThan(uploadForm.indexOf('type="file"'));

    const search = await (await browser.get(`/admin/kb/${id}?q=${encodeURIComponent('warranty kettle')}`)).text();
    expect(search).toContain('id="kb-search-results"');
    expect(search).toContain('<strong class="hit-title">warranty.pdf</strong>');
    expect(search).toContain('หน้า 1');
    expect(search).toMatch(/คะแนน \d+\.\d{3}/);
    const nothing = await (await browser.get(`/admin/kb/${id}?q=${encodeURIComponent('zebra xylophone')}`)).text();
    expect(nothing).toContain('ไม่พบข้อความที่ตรงกับ “zebra xylophone”');

    const documents = await world.testApp.app.knowledge.documents(id);
    expect(documents.map((document) => document.addedBy)).toEqual(['telegram:1001', 'telegram:1001', 'telegram:1001']);
    const added = (await auditActions(world)).filter((entry) => entry.action === 'kb-document-add' && entry.detail.kb === id);
    expect(added.map((entry) => entry.detail.title).sort()).toEqual(['hours.docx', 'refund.md', 'warranty.pdf']);
  });

  it('says why a file was refused, in the chat’s words, and stores nothing of it', async () => {
    const browser = await world.logIn({});
    const id = await createBase(browser, 'ปฏิเสธ');
    const answer = await upload(world, browser, id, [{ name: 'tool.exe', bytes: utf8('MZ binary') }], { ndjson: true });
    const [result] = await lines(answer);
    expect(result?.ok).toBe(false);
    expect(result?.text).toContain('❌ “tool.exe”: ยังไม่รองรับไฟล์ประเภท');
    const again = await upload(world, browser, id, [{ name: 'a.txt', bytes: utf8('ข้อความ หนึ่ง') }], { ndjson: true });
    expect((await lines(again))[0]?.ok).toBe(true);
    const duplicate = await upload(world, browser, id, [{ name: 'b.txt', bytes: utf8('ข้อความ หนึ่ง') }], { ndjson: true });
    expect((await lines(duplicate))[0]?.text).toContain('มีเอกสารเนื้อหาเดียวกันอยู่แล้ว: “a.txt”');
    const empty = await upload(world, browser, id, []);
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('ยังไม่ได้เลือกไฟล์');
    expect((await world.testApp.app.knowledge.documents(id)).map((document) => document.title)).toEqual(['a.txt']);
  });

  it('deletes a document, then the whole base, each leaving an audit entry', async () => {
    const browser = await world.logIn({});
    const id = await createBase(browser, 'ลบได้');
    await upload(world, browser, id, [{ name: 'one.txt', bytes: utf8('เอกสารที่หนึ่ง') }], { ndjson: true });
    await upload(world, browser, id, [{ name: 'two.txt', bytes: utf8('เอกสารที่สอง') }], { ndjson: true });
    const [one] = await world.testApp.app.knowledge.documents(id);
    if (!one) throw new Error('no document');
    const page = await (await browser.get(`/admin/kb/${id}`)).text();
    expect(page).toContain(`action="/admin/kb/${id}/documents/${one.id}/delete"`);
    expect(page).toContain('data-confirm="ลบเอกสาร “one.txt” ออกจากคลังนี้? กู้คืนไม่ได้"');

    const removed = await browser.post(`/admin/kb/${id}/documents/${one.id}/delete`, {});
    expect(removed.status).toBe(303);
    expect(noticeOf(removed)).toContain('ลบเอกสาร “one.txt”');
    expect((await world.testApp.app.knowledge.documents(id)).map((document) => document.title)).toEqual(['two.txt']);
    const gone = await browser.post(`/admin/kb/${id}/documents/${one.id}/delete`, {});
    expect(noticeOf(gone)).toContain('ไม่พบเอกสารนี้');
    expect((await browser.post(`/admin/kb/${id}/documents/1e3/delete`, {})).status).toBe(303);

    const deleted = await browser.post(`/admin/kb/${id}/delete`, {});
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get('location')).toBe('/admin/kb');
    expect(noticeOf(deleted)).toContain('ลบคลังความรู้ “ลบได้” แล้ว (1 เอกสาร)');
    expect(await world.testApp.app.knowledge.getKnowledgeBase(id)).toBeUndefined();
    expect((await browser.get(`/admin/kb/${id}`)).status).toBe(404);
    const audit = await auditActions(world);
    expect(audit).toContainEqual({ action: 'kb-document-delete', detail: { kb: id, name: 'ลบได้', document: one.id, title: 'one.txt' } });
    expect(audit).toContainEqual({ action: 'kb-delete', detail: { kb: id, name: 'ลบได้', space: groupSpace, documents: 1 } });
  });

  it('shows a document name and a description with markup as text', async () => {
    const browser = await world.logIn({});
    const id = await createBase(browser, 'escape', groupSpace, '<script>alert(1)</script>');
    const hostile = '<img src=x onerror=alert(1)>.txt';
    const answer = await upload(world, browser, id, [{ name: hostile, bytes: utf8('ข้อความธรรมดา') }], { ndjson: true });
    expect((await lines(answer))[0]?.ok).toBe(true);
    const page = await (await browser.get(`/admin/kb/${id}`)).text();
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('<script>alert(1)');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;.txt');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const list = await (await browser.get('/admin/kb')).text();
    expect(list).not.toContain('<script>alert(1)');
  });
});

describe('bindings', () => {
  it('binds and unbinds conversations of the base’s own space only', async () => {
    const browser = await world.logIn({});
    const id = await createBase(browser, 'ผูกห้อง');
    const { knowledge } = world.testApp.app;
    const bound = await browser.post(`/admin/kb/${id}/bind`, { conversation: groupSpace });
    expect(bound.status).toBe(303);
    expect(noticeOf(bound)).toContain(`ห้อง ${groupSpace} ใช้คลัง “ผูกห้อง” แล้ว`);
    expect(await knowledge.boundKnowledgeBaseIds(groupSpace)).toContain(id);
    const topic = `${groupSpace}:7`;
    expect((await browser.post(`/admin/kb/${id}/bind`, { conversation: topic })).status).toBe(303);
    expect(noticeOf(await browser.post(`/admin/kb/${id}/bind`, { conversation: topic }))).toContain('อยู่แล้ว');

    const page = await (await browser.get(`/admin/kb/${id}`)).text();
    expect(page).toContain('id="binding-list"');
    expect(page).toContain(`data-conversation="${groupSpace}"`);
    expect(page).toContain(`data-conversation="${topic}"`);
    // One bound from the chat (/kb bind, not this page) is listed too: the store's own list.
    const fromChat = `${groupSpace}:42`;
    expect(await knowledge.bind(fromChat, id, 'telegram:9', new Date())).toBe('bound');
    expect(await (await browser.get(`/admin/kb/${id}`)).text()).toContain(`data-conversation="${fromChat}"`);
    await knowledge.unbind(fromChat, id);

    for (const conversation of [otherSpace, `${groupSpace}0`, 'not a key', '']) {
      const refused = await browser.post(`/admin/kb/${id}/bind`, { conversation });
      expect(refused.status).toBe(400);
    }
    expect(await knowledge.boundKnowledgeBaseIds(otherSpace)).toEqual([]);
    const refusedText = await (await browser.post(`/admin/kb/${id}/bind`, { conversation: otherSpace })).text();
    expect(refusedText).toContain(`ไม่ได้อยู่ในกลุ่ม ${groupSpace}`);

    const unbound = await browser.post(`/admin/kb/${id}/unbind`, { conversation: topic });
    expect(unbound.status).toBe(303);
    expect(noticeOf(unbound)).toContain('เลิกใช้คลัง');
    expect(await knowledge.boundKnowledgeBaseIds(topic)).toEqual([]);
    expect(await knowledge.boundKnowledgeBaseIds(groupSpace)).toContain(id);
    const audit = await auditActions(world);
    expect(audit).toContainEqual({ action: 'kb-bind', detail: { kb: id, name: 'ผูกห้อง', conversation: topic } });
    expect(audit).toContainEqual({ action: 'kb-unbind', detail: { kb: id, name: 'ผูกห้อง', conversation: topic } });
  });
});
