import { logFailure } from '../../shared/log.js';
import { say, type Localized } from '../../shared/i18n.js';
import { describeIngestFailure, type AddDocumentResult } from '../../knowledge/index.js';
import type { Attachment } from '../../shared/types.js';
import type { CommandContext } from '../command.js';
import { resolveKnowledgeBase, senderKey } from './access.js';
import { textAfterWords } from './arguments.js';
import { escapeMarkdown } from '../../shared/markdown.js';
import type { KnowledgeCommandDependencies, Subcommand } from './subcommand.js';
import { ocrProgressReporter } from './ocr-progress.js';

/** /kb add's words, which the admin page's uploads say too (src/web/pages/knowledge/upload-results.ts). */
export const kbAddTexts = {
  usage: {
    th: 'วิธีใช้: /kb add <คลัง> พร้อมแนบไฟล์ (.txt .md .html .pdf .docx .csv หรือภาพ .png .jpg .webp — ภาพและ PDF สแกนอ่านด้วย OCR) หรือพิมพ์ข้อความต่อท้ายคำสั่ง',
    en: 'Usage: /kb add <kb> with files attached (.txt .md .html .pdf .docx .csv, or images .png .jpg .webp — images and scanned PDFs are read by OCR), or text after the command',
  },
  added: {
    th: '✅ “{title}” เพิ่มแล้ว (#{id}, {chunks} ส่วน)',
    en: '✅ “{title}” added (#{id}, {chunks} passages)',
  },
  unreadPage: {
    th: ' — ไม่ได้อ่านหน้า {pages} (ไม่มีชั้นข้อความ และเซิร์ฟเวอร์นี้ไม่มี OCR)',
    en: ' — page {pages} was not read (no text layer, and this server has no OCR)',
  },
  unreadPages: {
    th: ' — ไม่ได้อ่านหน้า {pages} (ไม่มีชั้นข้อความ และเซิร์ฟเวอร์นี้ไม่มี OCR)',
    en: ' — pages {pages} were not read (no text layer, and this server has no OCR)',
  },
  masked: {
    th: ' — ปิดบังค่าที่ดูเหมือนรหัสลับไว้ {count} ค่า ({kinds}) ที่เก็บไว้จึงไม่มีค่าจริง',
    en: ' — {count} value(s) that look like secrets were masked ({kinds}); the stored text does not hold them',
  },
  notEmbedded: { th: ' — ค้นหาด้วยคำได้ แต่สร้างเวกเตอร์ไม่สำเร็จ', en: ' — searchable by words; computing its vectors failed' },
  failed: { th: '❌ “{title}”: {reason}', en: '❌ “{title}”: {reason}' },
  downloadFailed: { th: 'ดาวน์โหลดไฟล์ไม่สำเร็จ กรุณาส่งใหม่', en: 'downloading the file failed; please send it again' },
  heading: { th: 'คลัง **{name}**:', en: 'Knowledge base **{name}**:' },
} satisfies Record<string, Localized>;

const maxTitleCharacters = 60;

function resultLine(title: string, result: AddDocumentResult, context: CommandContext): string {
  const { language } = context;
  if (!result.ok) return say(kbAddTexts.failed, language, { title: escapeMarkdown(title), reason: describeIngestFailure(result.failure, language) });
  const line = say(kbAddTexts.added, language, { title: escapeMarkdown(result.document.title), id: result.document.id, chunks: result.document.chunkCount });
  const unreadPages = result.unreadPages ?? [];
  const unreadText = unreadPages.length === 1 ? kbAddTexts.unreadPage : kbAddTexts.unreadPages;
  const unread = unreadPages.length > 0 ? say(unreadText, language, { pages: unreadPages.join(', ') }) : '';
  return line + unread + maskedNote(result.masked, language) + (result.vectors === 'failed' ? say(kbAddTexts.notEmbedded, language) : '');
}

/** How many credentials ingest masked, by kind (`github-token ×2`); nothing when none. */
function maskedNote(masked: Record<string, number> | undefined, language: CommandContext['language']): string {
  const entries = Object.entries(masked ?? {});
  if (entries.length === 0) return '';
  const count = entries.reduce((sum, [, times]) => sum + times, 0);
  return say(kbAddTexts.masked, language, { count, kinds: entries.map(([kind, times]) => `${kind} ×${times}`).join(', ') });
}

async function addAttachment(
  knowledgeBaseId: string,
  attachment: Attachment,
  title: string | undefined,
  context: CommandContext,
  { store, maxAttachmentBytes }: KnowledgeCommandDependencies,
): Promise<AddDocumentResult | 'download-failed'> {
  if (attachment.size > maxAttachmentBytes) return { ok: false, failure: { code: 'too-large', limitBytes: maxAttachmentBytes } };
  let bytes: Uint8Array;
  try {
    bytes = await context.download(attachment);
  } catch (error) {
    logFailure(context.log, 'warn', { knowledgeBaseId }, 'knowledge: attachment download failed', error);
    return 'download-failed';
  }
  if (bytes.length > maxAttachmentBytes) return { ok: false, failure: { code: 'too-large', limitBytes: maxAttachmentBytes } };
  return store.addDocument(knowledgeBaseId, {
    fileName: attachment.name,
    bytes,
    mime: attachment.mime,
    ...(title ? { title } : {}),
    addedBy: senderKey(context),
    now: context.now(),
    onProgress: ocrProgressReporter(title ?? attachment.name, context),
  });
}

/**
 * `/kb add <kb>` with attached files (text after the name titles a single file), or with the document's text
 * after the name (its first line becomes the title).
 */
export const addDocuments: Subcommand = async (input, context, dependencies) => {
  const { language } = context;
  const reference = input.words[0];
  if (!reference) return say(kbAddTexts.usage, language);
  const resolved = await resolveKnowledgeBase(dependencies.store, reference, context);
  if (!resolved.ok) return resolved.text;
  const knowledgeBase = resolved.knowledgeBase;
  const text = textAfterWords(input.rest, 1);
  const attachments = context.message.attachments;
  const lines: string[] = [];
  if (attachments.length > 0) {
    const title = attachments.length === 1 && text ? text.split('\n')[0]?.slice(0, 120) : undefined;
    for (const attachment of attachments) {
      const result = await addAttachment(knowledgeBase.id, attachment, title, context, dependencies);
      const shownTitle = title ?? attachment.name;
      lines.push(
        result === 'download-failed'
          ? say(kbAddTexts.failed, language, { title: escapeMarkdown(shownTitle), reason: say(kbAddTexts.downloadFailed, language) })
          : resultLine(shownTitle, result, context),
      );
    }
  } else if (text) {
    const firstLine = Array.from(text.split('\n')[0] ?? '')
      .slice(0, maxTitleCharacters)
      .join('')
      .trim();
    const result = await dependencies.store.addDocument(knowledgeBase.id, {
      fileName: 'message.txt',
      title: firstLine,
      bytes: new TextEncoder().encode(text),
      mime: 'text/plain',
      addedBy: senderKey(context),
      now: context.now(),
    });
    lines.push(resultLine(firstLine, result, context));
  } else {
    return say(kbAddTexts.usage, language);
  }
  return [say(kbAddTexts.heading, language, { name: escapeMarkdown(knowledgeBase.name) }), ...lines].join('\n');
};
