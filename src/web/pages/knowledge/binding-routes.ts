import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { AdminRequest, AdminRoute } from '../../admin-route.js';
import type { AdminServices } from '../admin-services.js';
import { checkConversation, type ConversationCheck } from './conversation-keys.js';
import { changeableBase, notFound, refusalBody, sendRefusal } from './knowledge-access.js';
import { basePath } from './knowledge-format.js';

// POST /admin/kb/:id/bind and /unbind: a conversation of the base's own space starts or stops reading it, through
// the same store as `/kb bind` and `/kb unbind`.

const texts = {
  refusedTitle: { th: 'ผูกห้องไม่ได้', en: 'Cannot bind' },
  malformed: {
    th: 'รหัสห้องสนทนา “{conversation}” ไม่ถูกรูปแบบ (เช่น telegram:-100123 หรือ telegram:-100123:7)',
    en: 'The conversation key “{conversation}” is not well-formed (e.g. telegram:-100123 or telegram:-100123:7).',
  },
  otherSpace: {
    th: 'ห้อง “{conversation}” ไม่ได้อยู่ในกลุ่ม {space} ซึ่งเป็นเจ้าของคลังนี้ ผูกได้เฉพาะห้องของกลุ่มเจ้าของคลัง',
    en: '“{conversation}” is not a chat of {space}, which owns this knowledge base: only its own chats can be bound.',
  },
  spaceUnknown: {
    th: 'บอกไม่ได้ว่าห้อง “{conversation}” อยู่ในกลุ่ม {space} หรือไม่ กรุณาพิมพ์ /kb bind {name} ในห้องนั้นแทน',
    en: 'There is no telling whether “{conversation}” belongs to {space}: type /kb bind {name} in that chat instead.',
  },
  bound: { th: 'ห้อง {conversation} ใช้คลัง “{name}” แล้ว', en: '{conversation} now uses “{name}”.' },
  alreadyBound: { th: 'ห้อง {conversation} ใช้คลัง “{name}” อยู่แล้ว', en: '{conversation} already uses “{name}”.' },
  unbound: { th: 'ห้อง {conversation} เลิกใช้คลัง “{name}” แล้ว', en: '{conversation} no longer uses “{name}”.' },
  notBound: { th: 'ห้อง {conversation} ไม่ได้ใช้คลัง “{name}” อยู่', en: '{conversation} does not use “{name}”.' },
} satisfies Record<string, Localized>;

const refusalTexts: Record<Exclude<ConversationCheck, 'ok'>, Localized> = {
  malformed: texts.malformed,
  'other-space': texts.otherSpace,
  'space-unknown': texts.spaceUnknown,
};

type BindingChange = 'bind' | 'unbind';

async function change(services: AdminServices, admin: AdminRequest, kind: BindingChange): Promise<void> {
  const access = await changeableBase(services, admin);
  if (!access.ok) return sendRefusal(admin, access.refusal);
  const { knowledgeBase } = access;
  const { language, session } = admin;
  const conversation = (admin.form.get('conversation') ?? '').trim();
  const values = { conversation, space: knowledgeBase.spaceKey, name: knowledgeBase.name };
  const check = checkConversation(conversation, knowledgeBase.spaceKey, session.scope.kind === 'global');
  // Unbinding a key the shape check refuses cannot match a binding anyway; any other key of a visible base may go.
  if (check !== 'ok' && (kind === 'bind' || check === 'malformed')) {
    const body = refusalBody(say(refusalTexts[check], language, values), language, basePath(knowledgeBase.id));
    return admin.page({ title: pick(texts.refusedTitle, language), current: 'knowledge', body, status: 400 });
  }
  const detail = { kb: knowledgeBase.id, name: knowledgeBase.name, conversation };
  if (kind === 'bind') {
    const result = await services.knowledge.bind(conversation, knowledgeBase.id, session.adminId, services.now());
    if (result === 'unknown-knowledge-base') return sendRefusal(admin, notFound(admin));
    if (result === 'bound') await admin.audit('kb-bind', detail);
    return admin.redirect(basePath(knowledgeBase.id), say(result === 'bound' ? texts.bound : texts.alreadyBound, language, values));
  }
  const removed = await services.knowledge.unbind(conversation, knowledgeBase.id);
  if (removed) await admin.audit('kb-unbind', detail);
  admin.redirect(basePath(knowledgeBase.id), say(removed ? texts.unbound : texts.notBound, language, values));
}

export function bindingRoutes(services: AdminServices): AdminRoute[] {
  return (['bind', 'unbind'] as const).map((kind) => ({
    method: 'POST',
    path: `/admin/kb/:id/${kind}`,
    body: 'form',
    handle: (admin) => change(services, admin, kind),
  }));
}
