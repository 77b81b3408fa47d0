import { say, type Localized } from '../../shared/i18n.js';
import { formatBytes, type KnowledgeDocument } from '../../knowledge/index.js';
import { resolveKnowledgeBase } from './access.js';
import { escapeMarkdown } from '../../shared/markdown.js';
import type { Subcommand } from './subcommand.js';

const strings = {
  usage: { th: 'วิธีใช้: /kb docs <คลัง>', en: 'Usage: /kb docs <kb>' },
  removeUsage: { th: 'วิธีใช้: /kb remove-doc <คลัง> <#เลขเอกสาร หรือชื่อเอกสาร>', en: 'Usage: /kb remove-doc <kb> <#document number or title>' },
  empty: { th: 'คลัง **{name}** ยังไม่มีเอกสาร เพิ่มได้ด้วย /kb add {name}', en: 'The knowledge base **{name}** has no documents yet. Add some with /kb add {name}.' },
  heading: { th: 'คลัง **{name}** มี {count} เอกสาร:', en: 'The knowledge base **{name}** has {count} documents:' },
  line: { th: '- #{id} {title} ({type}, {size}, {chunks} ส่วน, {date})', en: '- #{id} {title} ({type}, {size}, {chunks} passages, {date})' },
  more: { th: '…และอีก {count} เอกสาร', en: '…and {count} more documents' },
  removed: { th: 'ลบเอกสาร #{id} “{title}” ออกจากคลัง **{name}** แล้ว', en: 'Removed document #{id} “{title}” from **{name}**.' },
  noSuchDocument: {
    th: 'ไม่พบเอกสาร “{reference}” ในคลัง **{name}** ดูรายการได้ด้วย /kb docs {name}',
    en: 'No document “{reference}” in **{name}**. See /kb docs {name}.',
  },
  severalDocuments: { th: 'มีหลายเอกสารชื่อ “{reference}” กรุณาระบุเลข: {ids}', en: 'Several documents are titled “{reference}”; give its number: {ids}' },
} satisfies Record<string, Localized>;

const maxLines = 50;

/** `/kb docs <kb>`: the documents, oldest first. */
export const listDocuments: Subcommand = async (input, context, { store }) => {
  const { language } = context;
  const reference = input.words[0];
  if (!reference) return say(strings.usage, language);
  const resolved = await resolveKnowledgeBase(store, reference, context);
  if (!resolved.ok) return resolved.text;
  const name = escapeMarkdown(resolved.knowledgeBase.name);
  const documents = await store.documents(resolved.knowledgeBase.id);
  if (documents.length === 0) return say(strings.empty, language, { name });
  const lines = documents.slice(0, maxLines).map((document) =>
    say(strings.line, language, {
      id: document.id,
      title: escapeMarkdown(document.title),
      type: document.type,
      size: formatBytes(document.bytes),
      chunks: document.chunkCount,
      date: document.addedAt.toISOString().slice(0, 10),
    }),
  );
  if (documents.length > maxLines) lines.push(say(strings.more, language, { count: documents.length - maxLines }));
  return [say(strings.heading, language, { name, count: documents.length }), ...lines].join('\n');
};

/** `#12`, `12` or an exact title (case-insensitive). */
function findDocuments(documents: readonly KnowledgeDocument[], reference: string): KnowledgeDocument[] {
  const number = /^#?([0-9]{1,15})$/.exec(reference.trim());
  if (number) return documents.filter((document) => document.id === Number(number[1]));
  const wanted = reference.trim().toLowerCase();
  return documents.filter((document) => document.title.toLowerCase() === wanted || document.sourceName.toLowerCase() === wanted);
}

/** `/kb remove-doc <kb> <doc>` */
export const removeDocument: Subcommand = async (input, context, { store }) => {
  const { language } = context;
  const [reference, ...documentWords] = input.words;
  const documentReference = documentWords.join(' ');
  if (!reference || !documentReference) return say(strings.removeUsage, language);
  const resolved = await resolveKnowledgeBase(store, reference, context);
  if (!resolved.ok) return resolved.text;
  const knowledgeBase = resolved.knowledgeBase;
  const name = escapeMarkdown(knowledgeBase.name);
  const matches = findDocuments(await store.documents(knowledgeBase.id), documentReference);
  const target = matches[0];
  if (!target) return say(strings.noSuchDocument, language, { reference: escapeMarkdown(documentReference), name });
  if (matches.length > 1)
    return say(strings.severalDocuments, language, { reference: escapeMarkdown(documentReference), ids: matches.map((match) => `#${match.id}`).join(', ') });
  await store.removeDocument(knowledgeBase.id, target.id);
  context.log.info({ knowledgeBaseId: knowledgeBase.id, documentId: target.id }, 'knowledge: document removed');
  return say(strings.removed, language, { id: target.id, title: escapeMarkdown(target.title), name });
};
