import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { KnowledgeBase } from '../../../knowledge/index.js';
import type { Language } from '../../../shared/types.js';
import type { AdminRequest } from '../../admin-route.js';
import { html, type Html } from '../../html.js';
import { canSeeSpace } from '../../web-scope.js';
import type { AdminServices } from '../admin-services.js';
import { mayChangeSpace } from '../space-access.js';

// Which knowledge base a request names, and whether this session may see it or change it. A base of a space the
// session does not see is "not found", never "not yours": other groups' names are not disclosed.

const texts = {
  notFoundTitle: { th: 'ไม่พบคลังความรู้', en: 'Knowledge base not found' },
  notFound: { th: 'ไม่พบคลังความรู้นี้ (อาจถูกลบไปแล้ว)', en: 'There is no such knowledge base (it may have been deleted).' },
  refusedTitle: { th: 'ไม่มีสิทธิ์แก้ไข', en: 'Not allowed' },
  refused: {
    th: 'ขออภัย คุณไม่มีสิทธิ์แก้ไขคลังความรู้ “{name}” ได้เฉพาะผู้ดูแลของกลุ่มเจ้าของคลัง (ที่ยังเป็นผู้ดูแลอยู่) หรือผู้ดูแลระบบ',
    en: 'Sorry, you may not change the knowledge base “{name}”: only the current admins of the group that owns it, or the bot admins, may.',
  },
  refusedSpace: {
    th: 'ขออภัย คุณไม่มีสิทธิ์จัดการคลังความรู้ของกลุ่ม {space} ได้เฉพาะผู้ดูแลของกลุ่มนั้น (ที่ยังเป็นผู้ดูแลอยู่) หรือผู้ดูแลระบบ',
    en: 'Sorry, you may not manage the knowledge bases of {space}: only its current admins, or the bot admins, may.',
  },
  backToList: { th: 'กลับไปที่รายการคลังความรู้', en: 'Back to the knowledge bases' },
  back: { th: 'กลับไปที่คลังความรู้', en: 'Back to the knowledge base' },
} satisfies Record<string, Localized>;

/** What is sent instead of the page asked for: its status, title and one line of text. */
export interface Refusal {
  status: 403 | 404;
  title: string;
  text: string;
}

export type BaseAccess = { ok: true; knowledgeBase: KnowledgeBase } | { ok: false; refusal: Refusal };

export function notFound(admin: Pick<AdminRequest, 'language'>): Refusal {
  return { status: 404, title: pick(texts.notFoundTitle, admin.language), text: pick(texts.notFound, admin.language) };
}

/** A refusal's body in the common frame: the text and the way back. */
export function refusalBody(text: string, language: Language, back = '/admin/kb'): Html {
  return html`<p class="notice error" role="alert">${text}</p>
    <p><a href="${back}">${pick(back === '/admin/kb' ? texts.backToList : texts.back, language)}</a></p>`;
}

/** The knowledge base `:id` names when the session may see it. */
export async function visibleBase(
  services: Pick<AdminServices, 'knowledge'>,
  admin: Pick<AdminRequest, 'params' | 'session' | 'language'>,
): Promise<BaseAccess> {
  const knowledgeBase = await services.knowledge.getKnowledgeBase(admin.params.id ?? '');
  if (!knowledgeBase || !canSeeSpace(admin.session, knowledgeBase.spaceKey)) return { ok: false, refusal: notFound(admin) };
  return { ok: true, knowledgeBase };
}

/** The same, when the session may also change it now (mayChangeSpace: in scope, and still the group's admin). */
export async function changeableBase(
  services: Pick<AdminServices, 'knowledge' | 'stillSpaceAdmin'>,
  admin: Pick<AdminRequest, 'params' | 'session' | 'language'>,
): Promise<BaseAccess> {
  const visible = await visibleBase(services, admin);
  if (!visible.ok) return visible;
  if (await mayChangeSpace(services, admin.session, visible.knowledgeBase.spaceKey)) return visible;
  const text = say(texts.refused, admin.language, { name: visible.knowledgeBase.name });
  return { ok: false, refusal: { status: 403, title: pick(texts.refusedTitle, admin.language), text } };
}

/** The refusal for creating a knowledge base in a space the session may not change. */
export function spaceRefusal(spaceKey: string, admin: Pick<AdminRequest, 'language'>): Refusal {
  return { status: 403, title: pick(texts.refusedTitle, admin.language), text: say(texts.refusedSpace, admin.language, { space: spaceKey }) };
}

/** Sends a refusal as a page in the common frame. */
export function sendRefusal(admin: AdminRequest, refusal: Refusal): void {
  admin.page({ title: refusal.title, current: 'knowledge', body: refusalBody(refusal.text, admin.language), status: refusal.status });
}
