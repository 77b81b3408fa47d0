import { pick, say, type Localized } from '../../shared/i18n.js';
import type { KnowledgeBase, KnowledgeStore } from '../../knowledge/index.js';
import { adminIdOf } from '../admin-id.js';
import type { CommandContext } from '../command.js';
import { escapeMarkdown } from '../../shared/markdown.js';

// Who may do what: global admins (ADMIN_IDS) everything everywhere; space admins (the platform's admin flag)
// the knowledge bases of their own space; everyone else nothing. Decided here, once, for every subcommand.

export type Access = 'global' | 'space' | 'none';

export function accessOf(context: CommandContext): Access {
  if (context.isGlobalAdmin) return 'global';
  return context.message.sender.isPlatformAdmin ? 'space' : 'none';
}

export function canManage(knowledgeBase: KnowledgeBase, context: CommandContext): boolean {
  const access = accessOf(context);
  return access === 'global' || (access === 'space' && knowledgeBase.spaceKey === context.message.spaceKey);
}

/** `platform:id` of the sender, as stored in created_by / added_by. */
export function senderKey(context: CommandContext): string {
  return adminIdOf(context.message);
}

export const notAllowed: Localized = {
  th: 'ขออภัยครับ คำสั่ง /kb ใช้ได้เฉพาะผู้ดูแลของกลุ่มนี้หรือผู้ดูแลระบบเท่านั้น',
  en: 'Sorry, /kb is only for the admins of this group or the bot admins.',
};

/** LINE tells a bot of no group admins: only the bot admins can manage knowledge bases there. */
const notAllowedOnLine: Localized = {
  th: 'ขออภัยครับ คำสั่ง /kb ใช้ได้เฉพาะผู้ดูแลระบบของบอท (ADMIN_IDS) เท่านั้น พิมพ์ /whoami เพื่อดูรหัสของคุณสำหรับ ADMIN_IDS',
  en: 'Sorry, /kb is only for the bot admins (ADMIN_IDS). Type /whoami to see your id for ADMIN_IDS.',
};

const otherSpace: Localized = {
  th: 'ขออภัยครับ คลังความรู้ “{name}” เป็นของกลุ่มอื่น มีเพียงผู้ดูแลกลุ่มนั้นหรือผู้ดูแลระบบที่จัดการได้',
  en: 'Sorry, the knowledge base “{name}” belongs to another group: only its admins or the bot admins can manage it.',
};

const notFound: Localized = {
  th: 'ไม่พบคลังความรู้ “{reference}” ดูรายการได้ด้วย /kb list',
  en: 'No knowledge base “{reference}”. See /kb list.',
};

const ambiguous: Localized = {
  th: 'มีคลังความรู้ชื่อ “{reference}” หลายกลุ่ม กรุณาระบุด้วยรหัส: {ids}',
  en: 'Several groups have a knowledge base named “{reference}”; use its id: {ids}',
};

export type Resolution = { ok: true; knowledgeBase: KnowledgeBase } | { ok: false; text: string };

/**
 * A `<kb>` argument → a knowledge base the caller may manage. Names are looked up in this space first; only
 * global admins reach other spaces by name (names of other groups are not disclosed to space admins). An id
 * of another space's KB gets a refusal.
 */
export async function resolveKnowledgeBase(store: KnowledgeStore, reference: string, context: CommandContext): Promise<Resolution> {
  const { language } = context;
  const matches = await store.findKnowledgeBases(reference);
  const byId = matches.find((candidate) => candidate.id === reference);
  const here = matches.filter((candidate) => candidate.spaceKey === context.message.spaceKey);
  const global = accessOf(context) === 'global';
  const chosen = byId ?? (here.length === 1 ? here[0] : undefined) ?? (global && matches.length === 1 ? matches[0] : undefined);
  if (!chosen) {
    if (global && matches.length > 1) {
      return { ok: false, text: say(ambiguous, language, { reference: escapeMarkdown(reference), ids: matches.map((match) => `\`${match.id}\``).join(', ') }) };
    }
    return { ok: false, text: say(notFound, language, { reference: escapeMarkdown(reference) }) };
  }
  if (!canManage(chosen, context)) return { ok: false, text: say(otherSpace, language, { name: escapeMarkdown(chosen.name) }) };
  return { ok: true, knowledgeBase: chosen };
}

export function refusal(context: CommandContext): string {
  return pick(context.message.platform === 'line' ? notAllowedOnLine : notAllowed, context.language);
}
