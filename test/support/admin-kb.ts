import { silentLogger } from '../../src/shared/log.js';
import { emptyCounts, usageDay } from '../../src/storage/usage-store.js';
import { AuditLog } from '../../src/web/audit-log.js';
import type { WebGrant } from '../../src/web/web-sessions.js';
import { startAdminSite, type AdminBrowser, type AdminSiteWorld } from './admin-site.js';

// The knowledge-base pages' test helpers: a site where one group has used the bot and another owns a base, a group
// admin of the first, uploads as admin.js and a plain form send them, and what the answers carry.

export const groupSpace = 'telegram:-100555';
export const otherSpace = 'telegram:-100777';
export const groupAdmin: Partial<WebGrant> = { adminId: 'telegram:3003', name: 'Nok', scope: { kind: 'spaces', spaceKeys: [groupSpace] } };

export interface KnowledgeWorld {
  world: AdminSiteWorld;
  /** "ลับเฉพาะ", a base of the other group. */
  otherBaseId: string;
}

export async function startKnowledgeWorld(options: Parameters<typeof startAdminSite>[0] = {}): Promise<KnowledgeWorld> {
  const world = await startAdminSite(options);
  const { app } = world.testApp;
  // The group has used the bot (so a bot admin can pick it); another group owns a base of its own.
  await app.storage.usage.add({
    day: usageDay(new Date(), app.config.BOT_TIMEZONE),
    spaceKey: groupSpace,
    userKey: 'telegram:42',
    userName: 'A',
    counts: emptyCounts(),
  });
  const other = await app.knowledge.createKnowledgeBase({ name: 'ลับเฉพาะ', description: '', spaceKey: otherSpace, createdBy: 'telegram:9', now: new Date() });
  if (!other.ok) throw new Error(other.reason);
  return { world, otherBaseId: other.knowledgeBase.id };
}

export interface UploadFile {
  name: string;
  bytes: Uint8Array;
  type?: string;
}

/** A multipart upload as the page sends it: admin.js (NDJSON, the token in a header) or a plain form (HTML). */
export function upload(
  world: AdminSiteWorld,
  browser: AdminBrowser,
  id: string,
  files: UploadFile[],
  options: { ndjson?: boolean; csrf?: string | null } = {},
): Promise<Response> {
  const form = new FormData();
  for (const file of files) form.append('files', new Blob([Buffer.from(file.bytes)], { type: file.type ?? 'application/octet-stream' }), file.name);
  const headers: Record<string, string> = {
    cookie: browser.cookie,
    origin: world.baseUrl,
    'sec-fetch-site': 'same-origin',
    accept: options.ndjson ? 'application/x-ndjson' : 'text/html',
  };
  if (options.csrf !== null) headers['x-csrf-token'] = options.csrf ?? browser.csrfToken;
  return fetch(`${world.baseUrl}/admin/kb/${id}/documents`, { method: 'POST', redirect: 'manual', headers, body: form });
}

/** One NDJSON line of an upload's answer. */
export interface UploadLine {
  type: string;
  ok?: boolean;
  text: string;
  passages?: number;
  document?: number;
}

export async function lines(response: Response): Promise<UploadLine[]> {
  return (await response.text())
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as UploadLine);
}

/** The one-line notice a redirect carries to the next page. */
export function noticeOf(response: Response): string {
  const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
}

/** Creates a base through the page's form; its id. */
export async function createBase(browser: AdminBrowser, name: string, space = groupSpace, description = ''): Promise<string> {
  const created = await browser.post('/admin/kb', { name, description, space });
  const location = created.headers.get('location') ?? '';
  if (created.status !== 303 || !location.startsWith('/admin/kb/kb')) throw new Error(`create ${name}: ${created.status}`);
  return location.slice('/admin/kb/'.length);
}

/** The audit log's entries, newest first, from the store the sessions page reads. */
export async function auditActions(world: AdminSiteWorld): Promise<{ action: string; detail: Record<string, string | number> }[]> {
  return (await new AuditLog(world.testApp.app.storage.web, silentLogger()).latest()).map(({ action, detail }) => ({ action, detail }));
}
