import { escapeMarkdown } from '../../shared/markdown.js';
import { say, type Localized } from '../../shared/i18n.js';
import type { OcrProgress } from '../../knowledge/index.js';
import type { CommandContext } from '../command.js';

// Progress notes while `/kb add` OCRs a scanned PDF: one per page for a short scan, about one per tenth of the
// pages for a long one, so a 100-page scan does not flood the chat.

const readingPage: Localized = { th: '📄 “{title}”: กำลังอ่านหน้า {page}/{pages}', en: '📄 “{title}”: reading page {page}/{pages}' };

/** Every page up to this many pages to OCR; above it, every tenth of them. */
export const everyPageUpTo = 10;

export function shouldReport(progress: OcrProgress): boolean {
  if (progress.toRead <= everyPageUpTo) return true;
  const step = (done: number): number => Math.floor((done * 10) / progress.toRead);
  return progress.done === 0 || step(progress.done) !== step(progress.done - 1);
}

export function ocrProgressReporter(title: string, context: Pick<CommandContext, 'language' | 'progress'>): (progress: OcrProgress) => void {
  return (progress) => {
    if (!shouldReport(progress)) return;
    context.progress({
      source: 'kb_add',
      text: say(readingPage, context.language, { title: escapeMarkdown(title), page: progress.page, pages: progress.pages }),
    });
  };
}
