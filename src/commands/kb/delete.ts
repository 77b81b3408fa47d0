import { say, type Localized } from '../../shared/i18n.js';
import { resolveKnowledgeBase, senderKey } from './access.js';
import { confirmationMinutes } from './delete-confirmations.js';
import { escapeMarkdown } from '../../shared/markdown.js';
import type { Subcommand } from './subcommand.js';

const strings = {
  usage: { th: 'วิธีใช้: /kb delete <คลัง>', en: 'Usage: /kb delete <kb>' },
  confirm: {
    th: '⚠️ จะลบคลังความรู้ **{name}** ทั้งหมด ({documents} เอกสาร, ใช้อยู่ใน {bound} ห้อง) และกู้คืนไม่ได้\nยืนยันโดยส่ง `/kb delete {reference} {code}` ภายใน {minutes} นาที',
    en: '⚠️ This deletes the knowledge base **{name}** for good ({documents} documents, used in {bound} chats).\nTo confirm, send `/kb delete {reference} {code}` within {minutes} minutes.',
  },
  deleted: { th: 'ลบคลังความรู้ **{name}** แล้ว', en: 'Deleted the knowledge base **{name}**.' },
  wrongCode: {
    th: 'รหัสยืนยันไม่ถูกต้อง ลองอีกครั้ง หรือส่ง /kb delete {reference} เพื่อขอรหัสใหม่',
    en: 'Wrong confirmation code. Try again, or send /kb delete {reference} for a new code.',
  },
  nonePending: {
    th: 'ไม่มีคำขอลบที่รอยืนยัน (หรือหมดเวลาแล้ว) ส่ง /kb delete {reference} เพื่อเริ่มใหม่',
    en: 'No deletion is waiting for confirmation (or it expired). Send /kb delete {reference} to start again.',
  },
} satisfies Record<string, Localized>;

/** `/kb delete <kb>` → a code; `/kb delete <kb> <code>` (same person, same chat, in time) → deleted. */
export const deleteKnowledgeBase: Subcommand = async (input, context, { store, confirmations }) => {
  const { language } = context;
  const [reference, code] = input.words;
  if (!reference) return say(strings.usage, language);
  const resolved = await resolveKnowledgeBase(store, reference, context);
  if (!resolved.ok) return resolved.text;
  const knowledgeBase = resolved.knowledgeBase;
  const name = escapeMarkdown(knowledgeBase.name);
  const { conversationKey } = context.message;
  const sender = senderKey(context);
  // The reference echoed back is the id when the name has characters a user cannot retype reliably.
  const echoedReference = /^[\w.-]{1,40}$/.test(reference) ? reference : knowledgeBase.id;
  if (!code) {
    const summary = await store.summarize(knowledgeBase.id);
    const newCode = await confirmations.request(conversationKey, sender, knowledgeBase.id, context.now());
    return say(strings.confirm, language, {
      name,
      documents: summary?.documentCount ?? 0,
      bound: summary?.boundConversationCount ?? 0,
      reference: echoedReference,
      code: newCode,
      minutes: confirmationMinutes,
    });
  }
  const check = await confirmations.confirm(conversationKey, sender, knowledgeBase.id, code, context.now());
  if (check === 'wrong-code') return say(strings.wrongCode, language, { reference: echoedReference });
  if (check === 'none-pending') return say(strings.nonePending, language, { reference: echoedReference });
  await store.deleteKnowledgeBase(knowledgeBase.id);
  context.log.info({ knowledgeBaseId: knowledgeBase.id }, 'knowledge: knowledge base deleted');
  return say(strings.deleted, language, { name });
};
