import { pick, say, type Localized } from '../../shared/i18n.js';
import { formatBytes } from '../../knowledge/index.js';
import { resolveKnowledgeBase } from './access.js';
import { escapeMarkdown } from '../../shared/markdown.js';
import type { Subcommand } from './subcommand.js';

const strings = {
  usage: { th: 'วิธีใช้: /kb info <คลัง>', en: 'Usage: /kb info <kb>' },
  body: {
    th: '**{name}** (`{id}`)\n{description}เจ้าของ: {space} · สร้างโดย {creator} เมื่อ {date}\nเอกสาร {documents} · ส่วน {chunks} · ขนาดรวม {size}\nใช้ใน {bound} ห้อง{here}',
    en: '**{name}** (`{id}`)\n{description}Owner: {space} · created by {creator} on {date}\n{documents} documents · {chunks} passages · {size} in total\nUsed in {bound} chats{here}',
  },
  boundHere: { th: ' (รวมห้องนี้)', en: ' (including this one)' },
} satisfies Record<string, Localized>;

/** `/kb info <kb>` */
export const describeKnowledgeBase: Subcommand = async (input, context, { store }) => {
  const { language } = context;
  const reference = input.words[0];
  if (!reference) return say(strings.usage, language);
  const resolved = await resolveKnowledgeBase(store, reference, context);
  if (!resolved.ok) return resolved.text;
  const summary = await store.summarize(resolved.knowledgeBase.id);
  if (!summary) return say(strings.usage, language);
  const boundHere = (await store.boundKnowledgeBaseIds(context.message.conversationKey)).includes(summary.id);
  return say(strings.body, language, {
    name: escapeMarkdown(summary.name),
    id: summary.id,
    description: summary.description ? `${escapeMarkdown(summary.description)}\n` : '',
    space: escapeMarkdown(summary.spaceKey),
    creator: escapeMarkdown(summary.createdBy),
    date: summary.createdAt.toISOString().slice(0, 10),
    documents: summary.documentCount,
    chunks: summary.chunkCount,
    size: formatBytes(summary.totalBytes),
    bound: summary.boundConversationCount,
    here: boundHere ? pick(strings.boundHere, language) : '',
  });
};
