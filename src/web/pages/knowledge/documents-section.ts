import { formatBytes, type KnowledgeDocument } from '../../../knowledge/index.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { AdminRequest } from '../../admin-route.js';
import { html, type Html } from '../../html.js';
import { basePath, timeText } from './knowledge-format.js';
import { confirmedForm } from '../../form-fields.js';

// A knowledge base's documents, as `/kb docs` lists them, each with a delete button (a form: it works without the
// script; with it, the page asks first).

const texts = {
  heading: { th: 'เอกสาร ({count})', en: 'Documents ({count})' },
  none: { th: 'ยังไม่มีเอกสาร เพิ่มได้จากส่วน “เพิ่มเอกสาร”', en: 'No documents yet: add some under “Add documents”.' },
  title: { th: 'ชื่อเอกสาร', en: 'Title' },
  type: { th: 'ประเภท', en: 'Type' },
  size: { th: 'ขนาด', en: 'Size' },
  passages: { th: 'ส่วนข้อความ', en: 'Passages' },
  addedBy: { th: 'เพิ่มโดย', en: 'Added by' },
  addedAt: { th: 'เมื่อ', en: 'Added' },
  delete: { th: 'ลบ', en: 'Delete' },
  confirmDelete: { th: 'ลบเอกสาร “{title}” ออกจากคลังนี้? กู้คืนไม่ได้', en: 'Remove “{title}” from this knowledge base? This cannot be undone.' },
} satisfies Record<string, Localized>;

export function documentsSection(knowledgeBaseId: string, documents: readonly KnowledgeDocument[], admin: AdminRequest, timeZone: string): Html {
  const { language } = admin;
  const t = (text: Localized) => pick(text, language);
  const table = html`<table class="responsive" id="kb-documents">
    <thead>
      <tr>
        <th>${t(texts.title)}</th>
        <th>${t(texts.type)}</th>
        <th class="number">${t(texts.size)}</th>
        <th class="number">${t(texts.passages)}</th>
        <th>${t(texts.addedBy)}</th>
        <th>${t(texts.addedAt)}</th>
        <th></th>
      </tr>
    </thead>
    <tbody>
      ${documents.map(
        (document) =>
          html`<tr data-document="${document.id}">
            <td data-label="${t(texts.title)}" class="document-title">
              ${document.title}${document.sourceName !== document.title ? html`<br /><span class="muted">${document.sourceName}</span>` : ''}
            </td>
            <td data-label="${t(texts.type)}">${document.type}</td>
            <td class="number" data-label="${t(texts.size)}">${formatBytes(document.bytes)}</td>
            <td class="number" data-label="${t(texts.passages)}">${document.chunkCount}</td>
            <td data-label="${t(texts.addedBy)}">${document.addedBy}</td>
            <td data-label="${t(texts.addedAt)}">${timeText(document.addedAt, language, timeZone)}</td>
            <td>
              ${confirmedForm({
                action: `${basePath(knowledgeBaseId)}/documents/${document.id}/delete`,
                className: 'inline delete-document',
                confirm: say(texts.confirmDelete, language, { title: document.title }),
                label: t(texts.delete),
                csrfToken: admin.session.csrfToken,
              })}
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
  return html`<section id="kb-documents-section">
    <h2>${say(texts.heading, language, { count: documents.length })}</h2>
    ${documents.length === 0 ? html`<p class="muted">${t(texts.none)}</p>` : table}
  </section>`;
}
