import type { KnowledgeBase } from '../../../knowledge/index.js';
import { pick, type Localized } from '../../../shared/i18n.js';
import { logFailure } from '../../../shared/log.js';
import type { AdminRequest, AdminRoute } from '../../admin-route.js';
import { html } from '../../html.js';
import { renderPage } from '../../layout.js';
import { readMultipartUpload, type UploadedFile, type UploadLimits } from '../../multipart-upload.js';
import type { AdminServices } from '../admin-services.js';
import { changeableBase, refusalBody } from './knowledge-access.js';
import { basePath } from './knowledge-format.js';
import { NdjsonAnswer, ndjsonBeforeBody, answerBeforeBody, wantsNdjson } from './upload-answer.js';
import { fileResultText, noFilesText, ocrProgressText, uploadFailureAnswer, type FileOutcome } from './upload-results.js';
import type { UploadSlots } from './upload-slots.js';

// POST /admin/kb/:id/documents: files added as `/kb add` adds them — the same limit per file (MAX_ATTACHMENT_BYTES),
// the same store, the same words. The order matters: who may change the base, then a free upload slot, then the
// body (bounded as it streams: a file past the limit stops the reader and is answered 413, nothing kept), then each
// file stored and audited. The CSRF token was checked before this runs (admin-site.ts: admin.js's header), or is the
// plain form's first field, checked as the body streams before any byte of a file is kept (admin.csrfInBody).

const texts = {
  busy: {
    th: 'ขณะนี้มีการอัปโหลดอื่นกำลังทำงานอยู่ กรุณารอสักครู่แล้วลองใหม่',
    en: 'Other uploads are being processed right now. Please wait a moment and try again.',
  },
  busyTitle: { th: 'ระบบไม่ว่าง', en: 'Busy' },
  refusedTitle: { th: 'อัปโหลดไม่สำเร็จ', en: 'Upload refused' },
  nothingAdded: {
    th: 'ไม่ได้เพิ่มไฟล์ใดจากการส่งครั้งนี้ กรุณาส่งใหม่โดยไม่รวมไฟล์ที่มีปัญหา',
    en: 'No file of this upload was added. Send them again without the one refused.',
  },
} satisfies Record<string, Localized>;

/** Files in one request: admin.js sends one; a plain form sends what was chosen. */
const maxFilesPerRequest = 20;
/** The whole body of a plain form's several files, unless one file may be larger (MAX_ATTACHMENT_BYTES is). */
const formBudgetBytes = 40 * 1024 * 1024;
/** Room for the form's boundaries, part headers and fields around the files. */
const formOverheadBytes = 64 * 1024;
/** A body must have arrived within this (the HTTP server's own request timeout may end it sooner). */
const bodyTimeoutMs = 120_000;

export function uploadLimits(maxDocumentBytes: number): UploadLimits {
  return {
    maxFileBytes: maxDocumentBytes,
    maxFiles: maxFilesPerRequest,
    maxFields: 4,
    maxFieldBytes: 1024,
    maxTotalBytes: Math.max(maxDocumentBytes, formBudgetBytes) + formOverheadBytes,
    timeoutMs: bodyTimeoutMs,
  };
}

/**
 * Refuses before (or instead of) reading the body: an NDJSON line for admin.js, a page for a plain form (`more`: a
 * second line there, as a plain form may have sent several files).
 */
function refuse(admin: AdminRequest, status: number, title: string, text: string, options: { headers?: Record<string, string>; more?: string } = {}): void {
  const { request, response, language, session, path } = admin;
  const { headers } = options;
  if (wantsNdjson(request)) return ndjsonBeforeBody(request, response, status, { type: 'result', ok: false, text }, headers);
  const back = status === 404 ? '/admin/kb' : path.slice(0, path.length - '/documents'.length);
  const body = html`${refusalBody(text, language, back)}${options.more ? html`<p>${options.more}</p>` : ''}`;
  const page = renderPage({ title, language, session, current: 'knowledge', path, body });
  answerBeforeBody(request, response, { status, contentType: 'text/html; charset=utf-8', body: page.text, ...(headers ? { headers } : {}) });
}

async function storeFile(
  services: AdminServices,
  admin: AdminRequest,
  knowledgeBase: KnowledgeBase,
  file: UploadedFile,
  answer?: NdjsonAnswer,
): Promise<string> {
  const { language, session } = admin;
  let outcome: FileOutcome;
  try {
    outcome = await services.knowledge.addDocument(knowledgeBase.id, {
      fileName: file.name,
      bytes: file.bytes,
      mime: file.mime,
      addedBy: session.adminId,
      now: services.now(),
      // Every page: a line is a few bytes, and a scan has at most OCR_MAX_PAGES of them.
      ...(answer
        ? {
            onProgress: (progress) =>
              answer.line({ type: 'progress', file: file.name, page: progress.page, pages: progress.pages, text: ocrProgressText(progress, language) }),
          }
        : {}),
    });
  } catch (error) {
    logFailure(services.log, 'error', { knowledgeBaseId: knowledgeBase.id }, 'admin page: storing an uploaded document failed', error);
    outcome = { ok: false, failure: 'store-failed' };
  }
  const text = fileResultText(file.name, outcome, language);
  if (outcome.ok) {
    const { document } = outcome;
    services.log.info({ knowledgeBaseId: knowledgeBase.id, documentId: document.id, admin: session.adminId }, 'admin page: document added');
    await admin.audit('kb-document-add', { kb: knowledgeBase.id, name: knowledgeBase.name, document: document.id, title: document.title });
    answer?.line({ type: 'result', file: file.name, ok: true, text, title: document.title, document: document.id, passages: document.chunkCount });
  } else {
    answer?.line({ type: 'result', file: file.name, ok: false, text });
  }
  return text;
}

async function upload(services: AdminServices, slots: UploadSlots, admin: AdminRequest): Promise<void> {
  const { request, response, language } = admin;
  const access = await changeableBase(services, admin);
  if (!access.ok) return refuse(admin, access.refusal.status, access.refusal.title, access.refusal.text);
  const release = slots.take();
  if (!release) return refuse(admin, 503, pick(texts.busyTitle, language), pick(texts.busy, language), { headers: { 'retry-after': '5' } });
  try {
    const limits = uploadLimits(services.maxDocumentBytes);
    const read = await readMultipartUpload(request, limits, admin.csrfInBody);
    if (!read.ok) {
      const failure = uploadFailureAnswer(read.failure, limits, language);
      if (!failure) return void response.destroy();
      return refuse(admin, failure.status, pick(texts.refusedTitle, language), failure.text, { more: pick(texts.nothingAdded, language) });
    }
    if (read.files.length === 0) return refuse(admin, 400, pick(texts.refusedTitle, language), noFilesText(language));
    const answer = wantsNdjson(request) ? new NdjsonAnswer(response) : undefined;
    const lines: string[] = [];
    for (const file of read.files) lines.push(await storeFile(services, admin, access.knowledgeBase, file, answer));
    if (answer) return answer.end();
    admin.redirect(basePath(access.knowledgeBase.id), lines.join(' · '));
  } finally {
    release();
  }
}

export function uploadRoute(services: AdminServices, slots: UploadSlots): AdminRoute {
  return { method: 'POST', path: '/admin/kb/:id/documents', body: 'self', handle: (admin) => upload(services, slots, admin) };
}
