import { say, type Localized } from '../../shared/i18n.js';
import { resolveKnowledgeBase, senderKey } from './access.js';
import { escapeMarkdown } from '../../shared/markdown.js';
import type { Subcommand } from './subcommand.js';

const strings = {
  bindUsage: { th: 'วิธีใช้: /kb bind <คลัง>', en: 'Usage: /kb bind <kb>' },
  unbindUsage: { th: 'วิธีใช้: /kb unbind <คลัง>', en: 'Usage: /kb unbind <kb>' },
  bound: {
    th: 'ห้องนี้ใช้คลังความรู้ **{name}** แล้ว บอทจะตอบจากเอกสารในคลังนี้',
    en: 'This chat now uses the knowledge base **{name}**: the bot answers from its documents.',
  },
  alreadyBound: { th: 'ห้องนี้ใช้คลังความรู้ **{name}** อยู่แล้ว', en: 'This chat already uses **{name}**.' },
  unbound: { th: 'ห้องนี้เลิกใช้คลังความรู้ **{name}** แล้ว', en: 'This chat no longer uses **{name}**.' },
  notBound: { th: 'ห้องนี้ไม่ได้ใช้คลังความรู้ **{name}** อยู่', en: 'This chat does not use **{name}**.' },
} satisfies Record<string, Localized>;

/** `/kb bind <kb>`: this conversation may read the KB from now on. */
export const bindKnowledgeBase: Subcommand = async (input, context, { store }) => {
  const { language } = context;
  const reference = input.words[0];
  if (!reference) return say(strings.bindUsage, language);
  const resolved = await resolveKnowledgeBase(store, reference, context);
  if (!resolved.ok) return resolved.text;
  const { conversationKey } = context.message;
  const result = await store.bind(conversationKey, resolved.knowledgeBase.id, senderKey(context), context.now());
  const name = escapeMarkdown(resolved.knowledgeBase.name);
  if (result === 'bound') context.log.info({ knowledgeBaseId: resolved.knowledgeBase.id, conversationKey }, 'knowledge: bound');
  return say(result === 'bound' ? strings.bound : strings.alreadyBound, language, { name });
};

/** `/kb unbind <kb>` */
export const unbindKnowledgeBase: Subcommand = async (input, context, { store }) => {
  const { language } = context;
  const reference = input.words[0];
  if (!reference) return say(strings.unbindUsage, language);
  const resolved = await resolveKnowledgeBase(store, reference, context);
  if (!resolved.ok) return resolved.text;
  const { conversationKey } = context.message;
  const removed = await store.unbind(conversationKey, resolved.knowledgeBase.id);
  if (removed) context.log.info({ knowledgeBaseId: resolved.knowledgeBase.id, conversationKey }, 'knowledge: unbound');
  return say(removed ? strings.unbound : strings.notBound, language, { name: escapeMarkdown(resolved.knowledgeBase.name) });
};
