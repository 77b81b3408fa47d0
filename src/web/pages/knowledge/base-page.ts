import { formatBytes, type KnowledgeBaseSummary } from '../../../knowledge/index.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { AdminRequest, AdminRoute } from '../../admin-route.js';
import { detailsTable } from '../../details-table.js';
import { html, type Html } from '../../html.js';
import type { AdminServices } from '../admin-services.js';
import { bindingsSection, boundConversations } from './bindings-section.js';
import { documentsSection } from './documents-section.js';
import { notFound, sendRefusal, visibleBase } from './knowledge-access.js';
import { basePath, timeText } from './knowledge-format.js';
import { searchHits, searchQueryOf, searchSection } from './search-section.js';
import { uploadSection } from './upload-section.js';
import { confirmedForm } from '../../form-fields.js';

// GET /admin/kb/:id: one knowledge base — what `/kb info` says of it, a search to try, its documents, the upload,
// the conversations that read it, and deleting it all. Changes are checked again when posted (mayChangeSpace).

const texts = {
  title: { th: 'คลังความรู้ “{name}”', en: 'Knowledge base “{name}”' },
  id: { th: 'รหัส', en: 'Id' },
  space: { th: 'กลุ่มเจ้าของ', en: 'Owning group' },
  description: { th: 'คำอธิบาย', en: 'Description' },
  created: { th: 'สร้างโดย', en: 'Created by' },
  contents: { th: 'เนื้อหา', en: 'Contents' },
  contentsValue: { th: '{documents} เอกสาร · {chunks} ส่วน · รวม {size}', en: '{documents} documents · {chunks} passages · {size} in all' },
  bound: { th: 'ใช้ใน', en: 'Used in' },
  boundValue: { th: '{count} ห้องสนทนา', en: '{count} chats' },
  danger: { th: 'ลบคลังความรู้', en: 'Delete the knowledge base' },
  dangerExplain: {
    th: 'ลบคลังนี้พร้อมเอกสารทั้งหมด และเลิกผูกกับทุกห้อง กู้คืนไม่ได้',
    en: 'Deletes it with all its documents and unbinds it from every chat. This cannot be undone.',
  },
  confirmDelete: {
    th: 'ลบคลังความรู้ “{name}” ทั้งหมด ({documents} เอกสาร ใช้อยู่ใน {bound} ห้อง)? กู้คืนไม่ได้',
    en: 'Delete the knowledge base “{name}” for good ({documents} documents, used in {bound} chats)?',
  },
  deleteButton: { th: 'ลบคลังนี้', en: 'Delete it' },
  backToList: { th: '← คลังความรู้ทั้งหมด', en: '← All knowledge bases' },
} satisfies Record<string, Localized>;

function details(summary: KnowledgeBaseSummary, admin: AdminRequest, timeZone: string): Html {
  const { language } = admin;
  const t = (text: Localized) => pick(text, language);
  const rows: [string, Html | string][] = [
    [t(texts.id), html`<code>${summary.id}</code>`],
    [t(texts.space), summary.spaceKey],
    ...(summary.description ? [[t(texts.description), summary.description] as [string, string]] : []),
    [t(texts.created), `${summary.createdBy} · ${timeText(summary.createdAt, language, timeZone)}`],
    [
      t(texts.contents),
      say(texts.contentsValue, language, { documents: summary.documentCount, chunks: summary.chunkCount, size: formatBytes(summary.totalBytes) }),
    ],
    [t(texts.bound), say(texts.boundValue, language, { count: summary.boundConversationCount })],
  ];
  return detailsTable(rows, 'kb-details');
}

function deleteSection(summary: KnowledgeBaseSummary, admin: AdminRequest): Html {
  const { language } = admin;
  const confirm = say(texts.confirmDelete, language, { name: summary.name, documents: summary.documentCount, bound: summary.boundConversationCount });
  return html`<section id="kb-delete">
    <h2>${pick(texts.danger, language)}</h2>
    <p class="muted">${pick(texts.dangerExplain, language)}</p>
    ${confirmedForm({
      action: `${basePath(summary.id)}/delete`,
      id: 'kb-delete-form',
      confirm,
      label: pick(texts.deleteButton, language),
      csrfToken: admin.session.csrfToken,
    })}
  </section>`;
}

export function basePageRoute(services: AdminServices): AdminRoute {
  return {
    method: 'GET',
    path: '/admin/kb/:id',
    handle: async (admin) => {
      const access = await visibleBase(services, admin);
      if (!access.ok) return sendRefusal(admin, access.refusal);
      const { knowledgeBase } = access;
      const query = searchQueryOf(admin);
      const [summary, documents, hits, bound] = await Promise.all([
        services.knowledge.summarize(knowledgeBase.id),
        services.knowledge.documents(knowledgeBase.id),
        searchHits(services, knowledgeBase.id, query),
        boundConversations(services, knowledgeBase),
      ]);
      // Deleted between the two reads.
      if (!summary) return sendRefusal(admin, notFound(admin));
      const body = html`<p><a href="/admin/kb">${pick(texts.backToList, admin.language)}</a></p>
        ${details(summary, admin, services.timeZone)} ${searchSection(knowledgeBase.id, query, hits, admin)}
        ${documentsSection(knowledgeBase.id, documents, admin, services.timeZone)} ${uploadSection(knowledgeBase.id, services.maxDocumentBytes, admin)}
        ${bindingsSection(summary, bound, admin)} ${deleteSection(summary, admin)}`;
      admin.page({ title: say(texts.title, admin.language, { name: knowledgeBase.name }), current: 'knowledge', body });
    },
  };
}
