import { describeIngestFailure, formatBytes } from '../../../knowledge/index.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { AdminRequest } from '../../admin-route.js';
import { html, type Html } from '../../html.js';
import { basePath } from './knowledge-format.js';
import { csrfField } from '../../form-fields.js';

// The upload form. Without the script it is a plain multipart form (several files at once; its CSRF token rides in
// the action's query, as a multipart body is not read before the token is checked). With admin.js, files dropped on
// the drop zone or chosen in the input go one per request with a progress bar each, and the server's NDJSON lines
// (OCR page by page, then the result) are shown as they come. The script's words come from the page, in its
// language: `data-text-*` on the form.

const texts = {
  heading: { th: 'เพิ่มเอกสาร', en: 'Add documents' },
  explain: {
    th: 'รองรับ .txt .md .html .pdf .docx .csv และภาพ .png .jpg .webp (ภาพและ PDF สแกนอ่านด้วย OCR) ไม่เกิน {limit} ต่อไฟล์',
    en: 'Accepts .txt .md .html .pdf .docx .csv and images .png .jpg .webp (images and scanned PDFs are read by OCR), up to {limit} per file.',
  },
  dropZone: { th: 'ลากไฟล์มาวางที่นี่ได้หลายไฟล์พร้อมกัน', en: 'Drop files here, several at once' },
  choose: { th: 'เลือกไฟล์ (เลือกได้หลายไฟล์)', en: 'Choose files (several at once)' },
  send: { th: 'อัปโหลด', en: 'Upload' },
  refresh: { th: 'ดูรายการเอกสารล่าสุด', en: 'See the updated document list' },
  waiting: { th: 'รอคิว', en: 'waiting' },
  sending: { th: 'กำลังส่ง', en: 'sending' },
  reading: { th: 'กำลังอ่านไฟล์…', en: 'reading the file…' },
  failed: { th: '❌ “{name}”: ส่งไม่สำเร็จ ({status}) กรุณาลองใหม่', en: '❌ “{name}”: the upload failed ({status}). Please try again.' },
  tooLargeLine: { th: '❌ “{name}”: {reason}', en: '❌ “{name}”: {reason}' },
} satisfies Record<string, Localized>;

export function uploadSection(knowledgeBaseId: string, maxDocumentBytes: number, admin: AdminRequest): Html {
  const { language } = admin;
  const t = (text: Localized) => pick(text, language);
  const target = `${basePath(knowledgeBaseId)}/documents`;
  // The script fills in {name} (and {status}); the reason is the chat's own words for a file over the limit.
  const tooLarge = say(texts.tooLargeLine, language, { reason: describeIngestFailure({ code: 'too-large', limitBytes: maxDocumentBytes }, language) });
  return html`<section id="kb-upload">
    <h2>${t(texts.heading)}</h2>
    <p class="muted">${say(texts.explain, language, { limit: formatBytes(maxDocumentBytes) })}</p>
    <form
      id="upload-form"
      class="upload-form"
      method="post"
      enctype="multipart/form-data"
      action="${target}"
      data-upload-url="${target}"
      data-max-bytes="${maxDocumentBytes}"
      data-text-too-large="${tooLarge}"
      data-text-failed="${t(texts.failed)}"
      data-text-waiting="${t(texts.waiting)}"
      data-text-sending="${t(texts.sending)}"
      data-text-reading="${t(texts.reading)}"
    >
      ${csrfField(admin.session.csrfToken)}
      <div id="drop-zone" class="drop-zone" hidden>${t(texts.dropZone)}</div>
      <label for="upload-files">${t(texts.choose)}</label>
      <input type="file" id="upload-files" name="files" multiple required />
      <p><button type="submit" class="primary" id="upload-submit">${t(texts.send)}</button></p>
    </form>
    <ul id="upload-list" class="uploads" aria-live="polite"></ul>
    <p id="upload-refresh" hidden><a href="${basePath(knowledgeBaseId)}">${t(texts.refresh)}</a></p>
  </section>`;
}
