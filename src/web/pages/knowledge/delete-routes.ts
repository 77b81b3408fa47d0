import { say, type Localized } from '../../../shared/i18n.js';
import type { AdminRoute } from '../../admin-route.js';
import type { AdminServices } from '../admin-services.js';
import { changeableBase, sendRefusal } from './knowledge-access.js';
import { basePath } from './knowledge-format.js';

// POST /admin/kb/:id/documents/:document/delete and POST /admin/kb/:id/delete: what `/kb remove-doc` and
// `/kb delete` do. The page asks first (admin.js, `data-confirm`); the chat's confirmation code is for a chat, where
// a typed command cannot ask — here the post itself carries the page's token.

const texts = {
  documentDeleted: { th: 'ลบเอกสาร “{title}” ออกจากคลัง “{name}” แล้ว', en: 'Removed “{title}” from “{name}”.' },
  documentGone: { th: 'ไม่พบเอกสารนี้ในคลัง “{name}” (อาจถูกลบไปแล้ว)', en: 'That document is not in “{name}” (it may have been removed already).' },
  baseDeleted: { th: 'ลบคลังความรู้ “{name}” แล้ว ({documents} เอกสาร)', en: 'Deleted the knowledge base “{name}” ({documents} documents).' },
} satisfies Record<string, Localized>;

/** A document number as the path carries it: digits only (`Number` would take `1e3` or ` 7`). */
function documentIdOf(text: string | undefined): number | undefined {
  if (text === undefined || text.length === 0 || text.length > 15) return undefined;
  for (const character of text) if (character < '0' || character > '9') return undefined;
  return Number(text);
}

export function deleteRoutes(services: AdminServices): AdminRoute[] {
  return [
    {
      method: 'POST',
      path: '/admin/kb/:id/documents/:document/delete',
      body: 'form',
      handle: async (admin) => {
        const access = await changeableBase(services, admin);
        if (!access.ok) return sendRefusal(admin, access.refusal);
        const { knowledgeBase } = access;
        const documentId = documentIdOf(admin.params.document);
        const document = (await services.knowledge.documents(knowledgeBase.id)).find((candidate) => candidate.id === documentId);
        const back = basePath(knowledgeBase.id);
        if (!document || !(await services.knowledge.removeDocument(knowledgeBase.id, document.id))) {
          return admin.redirect(back, say(texts.documentGone, admin.language, { name: knowledgeBase.name }));
        }
        services.log.info({ knowledgeBaseId: knowledgeBase.id, documentId: document.id, admin: admin.session.adminId }, 'admin page: document removed');
        await admin.audit('kb-document-delete', { kb: knowledgeBase.id, name: knowledgeBase.name, document: document.id, title: document.title });
        admin.redirect(back, say(texts.documentDeleted, admin.language, { title: document.title, name: knowledgeBase.name }));
      },
    },
    {
      method: 'POST',
      path: '/admin/kb/:id/delete',
      body: 'form',
      handle: async (admin) => {
        const access = await changeableBase(services, admin);
        if (!access.ok) return sendRefusal(admin, access.refusal);
        const { knowledgeBase } = access;
        const documents = (await services.knowledge.summarize(knowledgeBase.id))?.documentCount ?? 0;
        await services.knowledge.deleteKnowledgeBase(knowledgeBase.id);
        services.log.info({ knowledgeBaseId: knowledgeBase.id, admin: admin.session.adminId }, 'admin page: knowledge base deleted');
        await admin.audit('kb-delete', { kb: knowledgeBase.id, name: knowledgeBase.name, space: knowledgeBase.spaceKey, documents });
        admin.redirect('/admin/kb', say(texts.baseDeleted, admin.language, { name: knowledgeBase.name, documents }));
      },
    },
  ];
}
