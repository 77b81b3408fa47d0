import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKnowledgeStore, type KnowledgeStore } from '../../../../../src/knowledge/index.js';
import { silentLogger } from '../../../../../src/shared/log.js';
import type { AdminRequest } from '../../../../../src/web/admin-route.js';
import { html } from '../../../../../src/web/html.js';
import type { AdminServices } from '../../../../../src/web/pages/admin-services.js';
import { uploadRoute } from '../../../../../src/web/pages/knowledge/upload-route.js';
import { UploadSlots } from '../../../../../src/web/pages/knowledge/upload-slots.js';
import type { WebSession } from '../../../../../src/web/web-sessions.js';
import { utf8 } from '../../../../support/knowledge/documents.js';

// The upload route alone, behind a hand-made door (the session and its token taken as checked): with every upload
// slot taken, a new upload is told to try again (503, in Thai) before a byte of its body is read, and nothing is
// stored; with a slot free again, the same upload goes through. The slots themselves give back what they took.

const folder = mkdtempSync(path.join(os.tmpdir(), 'saeng-upload-route-'));
let store: KnowledgeStore;
let server: http.Server;
let baseUrl: string;
let knowledgeBaseId: string;
const slots = new UploadSlots(2);

const session: WebSession = {
  adminId: 'telegram:1001',
  name: 'Somchai',
  scope: { kind: 'global' },
  language: 'th',
  id: 'session',
  csrfToken: 'token',
  createdAt: 0,
  lastSeenAt: 0,
  generation: 0,
};

beforeAll(async () => {
  store = openKnowledgeStore({ path: path.join(folder, 'knowledge.db'), log: silentLogger() });
  const created = await store.createKnowledgeBase({ name: 'faq', description: '', spaceKey: 'telegram:-100555', createdBy: 'telegram:1', now: new Date() });
  if (!created.ok) throw new Error(created.reason);
  knowledgeBaseId = created.knowledgeBase.id;
  const services = {
    knowledge: store,
    stillSpaceAdmin: async () => undefined,
    maxDocumentBytes: 1024 * 1024,
    log: silentLogger(),
    now: () => new Date(),
  } satisfies Partial<AdminServices>;
  const route = uploadRoute(services as unknown as AdminServices, slots);
  server = http.createServer((request, response) => {
    const admin: AdminRequest = {
      request,
      response,
      session,
      language: 'th',
      path: `/admin/kb/${knowledgeBaseId}/documents`,
      query: new URLSearchParams(),
      params: { id: knowledgeBaseId },
      form: new URLSearchParams(),
      audit: async () => undefined,
      page: ({ body, status }) => {
        response.writeHead(status ?? 200, { 'content-type': 'text/html' });
        response.end(html`${body}`.text);
      },
      redirect: (to, notice) => {
        response.writeHead(303, { location: to, 'x-notice': encodeURIComponent(notice ?? '') });
        response.end();
      },
    };
    void route.handle(admin);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  baseUrl = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await store.close();
  rmSync(folder, { recursive: true, force: true });
});

function send(accept: string) {
  const form = new FormData();
  form.append('files', new Blob([Buffer.from(utf8('ร้านเปิดทุกวัน 9 โมง'))], { type: 'text/plain' }), 'hours.txt');
  return fetch(`${baseUrl}/admin/kb/${knowledgeBaseId}/documents`, { method: 'POST', redirect: 'manual', headers: { accept }, body: form });
}

describe('the upload route', () => {
  it('tells an upload to try again while every slot is taken, and takes it once one is free', async () => {
    const first = slots.take();
    const second = slots.take();
    expect(slots.take()).toBeUndefined();
    const busy = await send('application/x-ndjson');
    expect(busy.status).toBe(503);
    expect(busy.headers.get('connection')).toBe('close');
    expect(busy.headers.get('retry-after')).toBe('5');
    expect(JSON.parse(await busy.text())).toMatchObject({ type: 'result', ok: false, text: expect.stringContaining('กรุณารอสักครู่แล้วลองใหม่') });
    const busyPage = await send('text/html');
    expect(busyPage.status).toBe(503);
    expect(await busyPage.text()).toContain('ขณะนี้มีการอัปโหลดอื่นกำลังทำงานอยู่');
    expect(await store.documents(knowledgeBaseId)).toEqual([]);

    first?.();
    first?.();
    expect(slots.inUse).toBe(1);
    const taken = await send('text/html');
    expect(taken.status).toBe(303);
    expect(decodeURIComponent(taken.headers.get('x-notice') ?? '')).toContain('✅ “hours.txt” เพิ่มแล้ว');
    // The upload gave its slot back.
    expect(slots.inUse).toBe(1);
    second?.();
    expect(slots.inUse).toBe(0);
    expect((await store.documents(knowledgeBaseId)).map((document) => document.title)).toEqual(['hours.txt']);
  });

  it('reads a plain form’s several files, without the script’s header (the door checked its token)', async () => {
    const form = new FormData();
    form.append('files', new Blob([Buffer.from(utf8('นโยบายคืนสินค้า 7 วัน'))]), 'returns.txt');
    form.append('files', new Blob([Buffer.from(utf8('# ส่งของ\n\nส่งฟรีเมื่อซื้อครบ 500 บาท'))]), 'shipping.md');
    const answer = await fetch(`${baseUrl}/admin/kb/${knowledgeBaseId}/documents`, { method: 'POST', redirect: 'manual', body: form });
    expect(answer.status).toBe(303);
    const notice = decodeURIComponent(answer.headers.get('x-notice') ?? '');
    expect(notice).toContain('✅ “returns.txt” เพิ่มแล้ว');
    expect(notice).toContain('✅ “shipping.md” เพิ่มแล้ว');
  });

  it('answers what is not a multipart form with 400', async () => {
    const answer = await fetch(`${baseUrl}/admin/kb/${knowledgeBaseId}/documents`, {
      method: 'POST',
      headers: { accept: 'application/x-ndjson', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(await answer.text())).toMatchObject({ ok: false, text: '❌ ข้อมูลที่ส่งมาไม่ใช่ไฟล์ที่อัปโหลดจากแบบฟอร์มนี้' });
  });
});
