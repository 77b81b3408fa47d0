import { maskCredentials } from '../dlp/mask-credentials.js';
import { say, type Localized } from '../shared/i18n.js';
import { neutralizeSourceMarkers } from '../shared/source-markers.js';
import type { Attachment, InboundMessage, Language } from '../shared/types.js';

// The message a question replies to (`InboundMessage.quoted`; docs/architecture.md, "Quoted messages"), as the turn
// reads it. Its text goes after the question as quoted material — labelled, fenced, its credentials masked like a
// stored document's — never into the question itself: the language and refusal steps read the user's own words, and
// "แปลข้อความนี้" stays a Thai question whatever language the quoted text is in. Like the group's chatter, it is a
// context passage (its figures back the answer's). Its images join the question's; a document's text is read up to
// a bound where a reader is given. A quote the bot cannot see is said by code in front of the answer.

export interface QuotedContext {
  /** The quoted material, after the question; undefined when there is none. */
  block?: string;
  /** The quoted message's images, read like the question's own. */
  images: Attachment[];
  /** What code puts in front of the answer (a quote the bot cannot see). */
  lead?: string;
}

export interface QuotedContextOptions {
  language: Language;
  /** The first characters of a quoted document's text (no OCR); undefined when it cannot be read. */
  documentText?: (attachment: Attachment) => Promise<string | undefined>;
}

/** How much of a quoted document's text goes in. */
export const maxQuotedDocumentChars = 3_000;

const strings = {
  byUser: { th: 'ข้อความที่ผู้ใช้ตอบกลับ (ของ {author}):', en: 'The message the user replied to (by {author}):' },
  byBot: { th: 'คำตอบก่อนหน้าของบอทที่ผู้ใช้ตอบกลับ:', en: 'The bot’s earlier answer the user replied to:' },
  images: { th: '(ข้อความนั้นมีรูป {count} รูป แนบมากับคำถามนี้)', en: '(That message has {count} image(s), attached to this question.)' },
  document: { th: 'ไฟล์ {name} ในข้อความนั้น (ตัดมา {chars} ตัวอักษรแรก):', en: 'The file {name} in that message (its first {chars} characters):' },
  unreadDocument: { th: '(ข้อความนั้นมีไฟล์ {name} ที่อ่านเนื้อหาไม่ได้)', en: '(That message has the file {name}, whose text could not be read.)' },
  masked: { th: '(ตัดข้อมูลลับออกจากข้อความที่อ้างถึงแล้ว)', en: '(Credentials were removed from the quoted message.)' },
  unknownContext: {
    th: 'ผู้ใช้ตอบกลับข้อความที่บอทมองไม่เห็น (เก่าเกินกว่าที่เก็บไว้ หรือส่งมาก่อนบอทเข้ากลุ่ม) อย่าเดาว่าข้อความนั้นเขียนว่าอะไร',
    en: 'The user replied to a message the bot cannot see (older than it keeps, or sent before it joined): do not guess what it said.',
  },
  unknownLead: {
    th: '(ไม่เห็นข้อความที่คุณตอบกลับ: เก่าเกินกว่าที่แสงเก็บไว้ หรือส่งมาก่อนแสงเข้ากลุ่ม ถ้าคำถามเกี่ยวกับข้อความนั้น คัดลอกข้อความมาพร้อมคำถามได้เลย)',
    en: '(I cannot see the message you replied to: it is older than I keep, or from before I joined. If the question is about it, paste its text with the question.)',
  },
} satisfies Record<string, Localized>;

/** Quoted text as data: no source markers, no fence of ours, credentials masked. */
function asQuotedData(text: string): { text: string; masked: boolean } {
  const masked = maskCredentials(text);
  // A credential the masker could not place would leave with the prompt: the text is left out instead.
  if (masked.unmasked.length > 0) return { text: '', masked: true };
  return { text: neutralizeSourceMarkers(masked.text).replaceAll('"""', '"“"'), masked: Object.keys(masked.masked).length > 0 };
}

const fenced = (text: string) => `"""\n${text}\n"""`;

export async function quotedContextOf(message: InboundMessage, options: QuotedContextOptions): Promise<QuotedContext> {
  const { quoted } = message;
  const { language } = options;
  if (!quoted) return { images: [] };
  if (quoted.state === 'unknown') return { block: say(strings.unknownContext, language), images: [], lead: say(strings.unknownLead, language) };
  const lines: string[] = [quoted.byBot ? say(strings.byBot, language) : say(strings.byUser, language, { author: quoted.author || '?' })];
  let masked = false;
  const body = asQuotedData(quoted.text.trim());
  masked ||= body.masked;
  if (body.text !== '') lines.push(fenced(body.text));
  const images = quoted.attachments.filter((attachment) => attachment.kind === 'image');
  if (images.length > 0) lines.push(say(strings.images, language, { count: images.length }));
  for (const document of quoted.attachments.filter((attachment) => attachment.kind === 'file')) {
    const read = await options.documentText?.(document).catch(() => undefined);
    const content = read === undefined ? undefined : asQuotedData(read.slice(0, maxQuotedDocumentChars).trim());
    masked ||= content?.masked ?? false;
    if (!content || content.text === '') lines.push(say(strings.unreadDocument, language, { name: neutralizeSourceMarkers(document.name) }));
    else lines.push(say(strings.document, language, { name: neutralizeSourceMarkers(document.name), chars: content.text.length }), fenced(content.text));
  }
  if (masked) lines.push(say(strings.masked, language));
  return { block: lines.join('\n'), images };
}
