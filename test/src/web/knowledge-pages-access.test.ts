import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBase, groupAdmin, groupSpace, lines, noticeOf, otherSpace, startKnowledgeWorld, upload } from '../../support/admin-kb.js';
import { startAdminSite, type AdminSiteWorld } from '../../support/admin-site.js';
import { utf8 } from '../../support/knowledge/documents.js';

// The knowledge-base pages' access rules over real HTTP: a group admin sees and changes only their group's bases
// (another group's is not found, and a demoted admin changes nothing), a change without the page's token stores
// nothing, and a file over MAX_ATTACHMENT_BYTES is answered 413 in the chat's Thai words with nothing stored.

let world: AdminSiteWorld;
let otherBaseId: string;
beforeAll(async () => {
  ({ world, otherBaseId } = await startKnowledgeWorld());
});
afterAll(async () => world.close());

describe('a group admin', () => {
  it('sees and changes only their group’s bases', async () => {
    const admin = await world.logIn({});
    const ownId = await createBase(admin, 'ของกลุ่ม');
    const browser = await world.logIn(groupAdmin);
    const list = await (await browser.get('/admin/kb')).text();
    expect(list).toContain('ของกลุ่ม');
    expect(list).not.toContain('ลับเฉพาะ');
    expect(list).not.toContain(otherSpace);
    expect(list).toContain(`<option value="${groupSpace}"`);

    expect((await browser.get(`/admin/kb/${otherBaseId}`)).status).toBe(404);
    const notFound = await browser.get(`/admin/kb/${otherBaseId}`);
    expect(await notFound.text()).not.toContain('ลับเฉพาะ');
    const { knowledge } = world.testApp.app;
    expect((await upload(world, browser, otherBaseId, [{ name: 'x.txt', bytes: utf8('แอบเพิ่ม') }])).status).toBe(404);
    expect((await upload(world, browser, otherBaseId, [{ name: 'x.txt', bytes: utf8('แอบเพิ่ม') }], { ndjson: true })).status).toBe(404);
    expect((await browser.post(`/admin/kb/${otherBaseId}/bind`, { conversation: otherSpace })).status).toBe(404);
    expect((await browser.post(`/admin/kb/${otherBaseId}/delete`, {})).status).toBe(404);
    expect(await knowledge.getKnowledgeBase(otherBaseId)).toBeDefined();
    expect(await knowledge.documents(otherBaseId)).toEqual([]);
    const created = await browser.post('/admin/kb', { name: 'แทรก', space: otherSpace });
    expect(created.status).toBe(403);
    expect(await knowledge.findKnowledgeBases('แทรก')).toEqual([]);

    // Their own group's base: every change goes through.
    const own = await upload(world, browser, ownId, [{ name: 'rules.txt', bytes: utf8('กฎของกลุ่ม ห้ามขายของ') }], { ndjson: true });
    expect((await lines(own))[0]?.ok).toBe(true);
    expect((await browser.post(`/admin/kb/${ownId}/bind`, { conversation: groupSpace })).status).toBe(303);
    const newId = await createBase(browser, 'ใหม่ของกลุ่ม');
    expect(await knowledge.getKnowledgeBase(newId)).toMatchObject({ spaceKey: groupSpace, createdBy: groupAdmin.adminId });
  });

  it('changes nothing once the platform says they are no longer an admin there', async () => {
    const demoted = await startAdminSite({ services: { stillSpaceAdmin: async () => false } });
    try {
      const { knowledge } = demoted.testApp.app;
      const made = await knowledge.createKnowledgeBase({ name: 'เดิม', description: '', spaceKey: groupSpace, createdBy: 'telegram:9', now: new Date() });
      if (!made.ok) throw new Error(made.reason);
      const id = made.knowledgeBase.id;
      const browser = await demoted.logIn(groupAdmin);
      expect((await browser.get(`/admin/kb/${id}`)).status).toBe(200);
      const refused = await upload(demoted, browser, id, [{ name: 'x.txt', bytes: utf8('ไม่ควรเข้า') }]);
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain('คุณไม่มีสิทธิ์แก้ไขคลังความรู้ “เดิม”');
      expect((await browser.post(`/admin/kb/${id}/bind`, { conversation: groupSpace })).status).toBe(403);
      expect((await browser.post(`/admin/kb/${id}/delete`, {})).status).toBe(403);
      expect((await browser.post('/admin/kb', { name: 'ใหม่', space: groupSpace })).status).toBe(403);
      expect(await knowledge.documents(id)).toEqual([]);
      expect(await knowledge.boundKnowledgeBaseIds(groupSpace)).toEqual([]);
      expect(await knowledge.listKnowledgeBases()).toHaveLength(1);
      // A bot admin is not asked of the platform.
      const admin = await demoted.logIn({});
      expect((await admin.post(`/admin/kb/${id}/bind`, { conversation: groupSpace })).status).toBe(303);
    } finally {
      await demoted.close();
    }
  });
});

describe('the upload’s limits and token', () => {
  it('stores nothing from a post without the page’s token', async () => {
    const browser = await world.logIn({});
    const id = await createBase(browser, 'โทเค็น');
    for (const csrf of [null, 'wrong']) {
      const refused = await upload(world, browser, id, [{ name: 'a.txt', bytes: utf8('ไม่ควรเก็บ') }], { csrf });
      expect(refused.status).toBe(403);
    }
    expect((await browser.post(`/admin/kb/${id}/bind`, { conversation: groupSpace }, { csrf: 'wrong' })).status).toBe(403);
    expect((await browser.post(`/admin/kb/${id}/delete`, {}, { csrf: '' })).status).toBe(403);
    expect((await browser.post('/admin/kb', { name: 'ไม่มีโทเค็น', space: groupSpace }, { csrf: 'wrong' })).status).toBe(403);
    const { knowledge } = world.testApp.app;
    expect(await knowledge.documents(id)).toEqual([]);
    expect(await knowledge.getKnowledgeBase(id)).toBeDefined();
    expect(await knowledge.findKnowledgeBases('ไม่มีโทเค็น')).toEqual([]);
  });

  // A plain form (no script) cannot send a header: its token is the body's first field, checked before any byte of a
  // file is kept. Not after the file, not wrong, not in the URL.
  it('takes a plain form’s upload with the token as its first field, and refuses it elsewhere or wrong', async () => {
    const browser = await world.logIn({});
    const id = await createBase(browser, 'ไม่มีสคริปต์');
    const post = (fields: { csrf?: string; after?: boolean; query?: string }) => {
      const form = new FormData();
      const token = () => fields.csrf !== undefined && form.append('csrf', fields.csrf);
      if (!fields.after) token();
      form.append('files', new Blob([Buffer.from(utf8('ฟอร์มธรรมดา ไม่มีสคริปต์'))], { type: 'text/plain' }), 'plain.txt');
      if (fields.after) token();
      return fetch(`${world.baseUrl}/admin/kb/${id}/documents${fields.query ?? ''}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: browser.cookie, origin: world.baseUrl, 'sec-fetch-site': 'same-origin' },
        body: form,
      });
    };
    expect((await post({ csrf: 'wrong' })).status).toBe(403);
    expect((await post({ csrf: browser.csrfToken, after: true })).status).toBe(403);
    expect((await post({ query: `?csrf=${encodeURIComponent(browser.csrfToken)}` })).status).toBe(403);
    expect(await world.testApp.app.knowledge.documents(id)).toEqual([]);
    const taken = await post({ csrf: browser.csrfToken });
    expect(taken.status).toBe(303);
    expect(noticeOf(taken)).toContain('✅ “plain.txt” เพิ่มแล้ว');
  });

  it('answers a file over MAX_ATTACHMENT_BYTES with 413 and the chat’s Thai words, storing nothing', async () => {
    const small = await startAdminSite({ environment: { MAX_ATTACHMENT_BYTES: '2048' } });
    try {
      const browser = await small.logIn({});
      const made = await small.testApp.app.knowledge.createKnowledgeBase({
        name: 'เล็ก',
        description: '',
        spaceKey: groupSpace,
        createdBy: 'telegram:9',
        now: new Date(),
      });
      if (!made.ok) throw new Error(made.reason);
      const id = made.knowledgeBase.id;
      const big = utf8('ก'.repeat(3000));
      const ndjson = await upload(small, browser, id, [{ name: 'big.txt', bytes: big }], { ndjson: true });
      expect(ndjson.status).toBe(413);
      expect(ndjson.headers.get('connection')).toBe('close');
      expect(await lines(ndjson)).toEqual([{ type: 'result', ok: false, text: '❌ “big.txt”: ไฟล์ใหญ่เกินไป (สูงสุด 2 KB)' }]);
      // Megabytes past the limit: the reader stops, the rest is discarded, the answer still arrives whole.
      const page = await upload(small, browser, id, [
        { name: 'ok.txt', bytes: utf8('เล็กพอ') },
        { name: 'huge.txt', bytes: new Uint8Array(3 * 1024 * 1024).fill(0x61) },
      ]);
      expect(page.status).toBe(413);
      expect(page.headers.get('connection')).toBe('close');
      const refusal = await page.text();
      expect(refusal).toContain('❌ “huge.txt”: ไฟล์ใหญ่เกินไป (สูงสุด 2 KB)');
      expect(refusal).toContain('ไม่ได้เพิ่มไฟล์ใดจากการส่งครั้งนี้');
      expect(await small.testApp.app.knowledge.documents(id)).toEqual([]);
      // Exactly the limit is accepted.
      const exact = await upload(small, browser, id, [{ name: 'exact.txt', bytes: new Uint8Array(2048).fill(0x62) }], { ndjson: true });
      expect((await lines(exact))[0]?.ok).toBe(true);
    } finally {
      await small.close();
    }
  });
});
