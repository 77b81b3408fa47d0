import { describeIngestFailure, formatBytes, type AddDocumentResult, type IngestFailure, type OcrProgress } from '../../../knowledge/index.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { Language } from '../../../shared/types.js';
import type { UploadFailure, UploadLimits } from '../../multipart-upload.js';
import { kbAddTexts } from '../../../commands/kb/add.js';
import { webTexts } from '../../web-texts.js';

// What an upload tells the admin, in the words `/kb add` uses in the chat (its own texts): one line per file (✅ added, with the
// chat's notes on unread pages, masked secrets and failed vectors; ❌ with describeIngestFailure's reason), the OCR
// progress, and why a whole request was refused (too large, too many files, too slow, not a form).

const texts = {
  failedRequest: { th: '❌ {reason}', en: '❌ {reason}' },
  // describeIngestFailure escapes the title for a chat's Markdown; a page shows it as typed.
  duplicate: { th: 'มีเอกสารเนื้อหาเดียวกันอยู่แล้ว: “{title}”', en: 'A document with the same content is already there: “{title}”.' },
  storeFailed: { th: 'บันทึกไม่สำเร็จ กรุณาลองใหม่อีกครั้ง', en: 'Storing it failed. Please try again.' },
  ocrPage: { th: 'OCR หน้า {page}/{pages}', en: 'OCR page {page}/{pages}' },
  totalTooLarge: {
    th: 'ไฟล์ที่ส่งรวมกันใหญ่เกินไป (รวมสูงสุด {limit}) กรุณาส่งทีละน้อยไฟล์',
    en: 'The files sent together are too large (at most {limit} in all). Send fewer at a time.',
  },
  tooManyFiles: { th: 'ส่งได้ครั้งละไม่เกิน {count} ไฟล์', en: 'At most {count} files at a time.' },
  tooSlow: { th: 'ส่งไฟล์ช้าเกินไปจนหมดเวลา กรุณาลองใหม่', en: 'The upload was too slow and timed out. Please try again.' },
  badForm: { th: 'ข้อมูลที่ส่งมาไม่ใช่ไฟล์ที่อัปโหลดจากแบบฟอร์มนี้', en: 'What was sent is not an upload from this form.' },
  noFiles: { th: 'ยังไม่ได้เลือกไฟล์', en: 'No file was chosen.' },
} satisfies Record<string, Localized>;

/** A file's outcome: stored, refused by ingest, or lost to a store that failed. */
export type FileOutcome = AddDocumentResult | { ok: false; failure: 'store-failed' };

function reasonOf(failure: IngestFailure | 'store-failed', language: Language): string {
  if (failure === 'store-failed') return pick(texts.storeFailed, language);
  if (failure.code === 'duplicate') return say(texts.duplicate, language, { title: failure.existingTitle });
  return describeIngestFailure(failure, language);
}

function maskedNote(masked: Record<string, number> | undefined, language: Language): string {
  const entries = Object.entries(masked ?? {});
  if (entries.length === 0) return '';
  const count = entries.reduce((sum, [, times]) => sum + times, 0);
  return say(kbAddTexts.masked, language, { count, kinds: entries.map(([kind, times]) => `${kind} ×${times}`).join(', ') });
}

/** The line `/kb add` would reply for this file. */
export function fileResultText(fileName: string, outcome: FileOutcome, language: Language): string {
  if (!outcome.ok) return say(kbAddTexts.failed, language, { title: fileName, reason: reasonOf(outcome.failure, language) });
  const { document } = outcome;
  const unread = outcome.unreadPages ?? [];
  const unreadNote =
    unread.length === 0 ? '' : say(unread.length === 1 ? kbAddTexts.unreadPage : kbAddTexts.unreadPages, language, { pages: unread.join(', ') });
  return (
    say(kbAddTexts.added, language, { title: document.title, id: document.id, chunks: document.chunkCount }) +
    unreadNote +
    maskedNote(outcome.masked, language) +
    (outcome.vectors === 'failed' ? pick(kbAddTexts.notEmbedded, language) : '')
  );
}

export function ocrProgressText(progress: OcrProgress, language: Language): string {
  return say(texts.ocrPage, language, { page: progress.page, pages: progress.pages });
}

export function noFilesText(language: Language): string {
  return say(texts.failedRequest, language, { reason: pick(texts.noFiles, language) });
}

/** How a request refused by the upload reader is answered: its status and line; undefined when the client left. */
export function uploadFailureAnswer(failure: UploadFailure, limits: UploadLimits, language: Language): { status: number; text: string } | undefined {
  const request = (status: number, reason: string) => ({ status, text: say(texts.failedRequest, language, { reason }) });
  switch (failure.code) {
    case 'too-large': {
      if (failure.limitBytes === limits.maxFileBytes) {
        const reason = describeIngestFailure({ code: 'too-large', limitBytes: limits.maxFileBytes }, language);
        return failure.fileName === undefined
          ? request(413, reason)
          : { status: 413, text: say(kbAddTexts.failed, language, { title: failure.fileName, reason }) };
      }
      if (failure.limitBytes === limits.maxTotalBytes) return request(413, say(texts.totalTooLarge, language, { limit: formatBytes(limits.maxTotalBytes) }));
      // A form field past its limit: not something this form sends.
      return request(413, pick(texts.badForm, language));
    }
    case 'too-many-files':
      return request(413, say(texts.tooManyFiles, language, { count: limits.maxFiles }));
    case 'too-slow':
      return request(408, pick(texts.tooSlow, language));
    case 'not-multipart':
    case 'bad-form':
    case 'too-many-fields':
      return request(400, pick(texts.badForm, language));
    case 'forbidden':
      return { status: 403, text: pick(webTexts.crossSite, language) };
    case 'aborted':
      return undefined;
  }
}
