import { maxDescriptionLength } from '../../../knowledge/index.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { AdminRoute } from '../../admin-route.js';
import { canSeeSpace } from '../../web-scope.js';
import type { AdminServices } from '../admin-services.js';
import { mayChangeSpace } from '../space-access.js';
import { sendRefusal, spaceRefusal } from './knowledge-access.js';
import { basePath } from './knowledge-format.js';
import { knownSpaces } from './known-spaces.js';
import { sendListPage } from './list-page.js';

// POST /admin/kb: a new knowledge base, as `/kb create` makes one, owned by the space chosen in the form — one of the
// session's own for a group admin. The store applies the name rule (isValidKnowledgeBaseName) and refuses a name
// the space already has, as it does for the chat.

const texts = {
  invalidName: {
    th: 'ชื่อ “{name}” ใช้ไม่ได้: ใช้ตัวอักษร ตัวเลข _ . - ได้ไม่เกิน 40 ตัว และห้ามมีเว้นวรรค',
    en: 'The name “{name}” is not valid: up to 40 letters, digits, _ . - and no spaces.',
  },
  duplicate: { th: 'กลุ่ม {space} มีคลังความรู้ชื่อ “{name}” อยู่แล้ว', en: 'The group {space} already has a knowledge base named “{name}”.' },
  unknownSpace: { th: 'กรุณาเลือกกลุ่มเจ้าของคลังจากรายการ', en: 'Choose the owning group from the list.' },
  created: {
    th: 'สร้างคลังความรู้ “{name}” แล้ว เพิ่มเอกสารได้ด้านล่าง',
    en: 'Created the knowledge base “{name}”. Add documents below.',
  },
} satisfies Record<string, Localized>;

/** A description as `/kb create` keeps it: one line, at most maxDescriptionLength characters. */
function descriptionOf(text: string): string {
  return text.replace(/\s+/g, ' ').trim().slice(0, maxDescriptionLength);
}

export function createRoute(services: AdminServices): AdminRoute {
  return {
    method: 'POST',
    path: '/admin/kb',
    body: 'form',
    handle: async (admin) => {
      const { form, session, language } = admin;
      const name = (form.get('name') ?? '').trim();
      const description = descriptionOf(form.get('description') ?? '');
      const spaceKey = form.get('space') ?? '';
      const again = (error: string, status: number) => sendListPage(services, admin, { name, description, spaceKey, error }, status);
      if (!canSeeSpace(session, spaceKey)) return sendRefusal(admin, spaceRefusal(spaceKey, admin));
      if (!(await knownSpaces(services, session)).includes(spaceKey)) return again(pick(texts.unknownSpace, language), 400);
      if (!(await mayChangeSpace(services, session, spaceKey))) return sendRefusal(admin, spaceRefusal(spaceKey, admin));
      const created = await services.knowledge.createKnowledgeBase({ name, description, spaceKey, createdBy: session.adminId, now: services.now() });
      if (!created.ok) {
        const text = created.reason === 'duplicate-name' ? texts.duplicate : texts.invalidName;
        return again(say(text, language, { name, space: spaceKey }), created.reason === 'duplicate-name' ? 409 : 400);
      }
      const { knowledgeBase } = created;
      services.log.info({ knowledgeBaseId: knowledgeBase.id, spaceKey, admin: session.adminId }, 'admin page: knowledge base created');
      await admin.audit('kb-create', { kb: knowledgeBase.id, name: knowledgeBase.name, space: spaceKey });
      admin.redirect(basePath(knowledgeBase.id), say(texts.created, language, { name: knowledgeBase.name }));
    },
  };
}
