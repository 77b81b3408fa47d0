import { pick, say, type Localized } from '../../shared/i18n.js';
import type { KnowledgeBase, KnowledgeStore } from '../../knowledge/index.js';
import type { CommandContext } from '../command.js';
import { accessOf } from './access.js';
import { escapeMarkdown } from '../../shared/markdown.js';
import { thisSpace } from './space-name.js';
import type { Subcommand } from './subcommand.js';

const strings = {
  here: { th: '**คลังความรู้ของ{space}**', en: '**Knowledge bases of {space}**' },
  boundElsewhere: { th: '**ผูกกับห้องนี้ (จากที่อื่น)**', en: '**Bound to this chat (from elsewhere)**' },
  otherSpaces: { th: '**ที่อื่น**', en: '**Elsewhere**' },
  none: { th: 'ยังไม่มีคลังความรู้ สร้างได้ด้วย /kb create <ชื่อ> [คำอธิบาย]', en: 'No knowledge bases yet. Create one with /kb create <name> [description].' },
  documents: { th: '{count} เอกสาร', en: '{count} documents' },
  bound: { th: '🔗 ใช้ในห้องนี้', en: '🔗 used in this chat' },
  more: { th: '…และอีก {count} รายการ', en: '…and {count} more' },
} satisfies Record<string, Localized>;

const maxLines = 30;

/** Document count per KB id, asked for all the KBs at once. */
async function documentCounts(store: KnowledgeStore, knowledgeBases: readonly KnowledgeBase[]): Promise<Map<string, number>> {
  const summaries = await Promise.all(knowledgeBases.map((knowledgeBase) => store.summarize(knowledgeBase.id)));
  return new Map(knowledgeBases.map((knowledgeBase, index) => [knowledgeBase.id, summaries[index]?.documentCount ?? 0]));
}

function line(knowledgeBase: KnowledgeBase, documents: number, bound: ReadonlySet<string>, context: CommandContext, showSpace: boolean): string {
  const { language } = context;
  const parts = [`- **${escapeMarkdown(knowledgeBase.name)}** (\`${knowledgeBase.id}\`)`];
  if (knowledgeBase.description) parts.push(`— ${escapeMarkdown(knowledgeBase.description)}`);
  parts.push(`· ${say(strings.documents, language, { count: documents })}`);
  if (showSpace) parts.push(`· ${escapeMarkdown(knowledgeBase.spaceKey)}`);
  if (bound.has(knowledgeBase.id)) parts.push(`· ${pick(strings.bound, language)}`);
  return parts.join(' ');
}

function section(title: Localized, lines: string[], context: CommandContext): string[] {
  if (lines.length === 0) return [];
  const shown = lines.slice(0, maxLines);
  if (lines.length > maxLines) shown.push(say(strings.more, context.language, { count: lines.length - maxLines }));
  return [say(title, context.language, { space: thisSpace(context) }), ...shown];
}

/** `/kb list`: this space's KBs, KBs of other spaces bound here, and (global admins) every other KB. */
export const listKnowledgeBases: Subcommand = async (_input, context, { store }) => {
  const { spaceKey, conversationKey } = context.message;
  const bound = new Set(await store.boundKnowledgeBaseIds(conversationKey));
  const all = accessOf(context) === 'global' ? await store.listKnowledgeBases() : await store.listKnowledgeBases({ spaceKey });
  const here = all.filter((knowledgeBase) => knowledgeBase.spaceKey === spaceKey);
  const boundElsewhere = (await Promise.all([...bound].map((id) => store.getKnowledgeBase(id)))).filter(
    (knowledgeBase): knowledgeBase is KnowledgeBase => knowledgeBase !== undefined && knowledgeBase.spaceKey !== spaceKey,
  );
  const others = all.filter((knowledgeBase) => knowledgeBase.spaceKey !== spaceKey && !bound.has(knowledgeBase.id));
  const counts = await documentCounts(store, [...here, ...boundElsewhere, ...others]);
  const lines = (knowledgeBases: readonly KnowledgeBase[], showSpace: boolean): string[] =>
    knowledgeBases.map((knowledgeBase) => line(knowledgeBase, counts.get(knowledgeBase.id) ?? 0, bound, context, showSpace));
  const blocks = [
    section(strings.here, lines(here, false), context),
    section(strings.boundElsewhere, lines(boundElsewhere, true), context),
    section(strings.otherSpaces, lines(others, true), context),
  ].filter((block) => block.length > 0);
  if (blocks.length === 0) return pick(strings.none, context.language);
  return blocks.map((block) => block.join('\n')).join('\n\n');
};
