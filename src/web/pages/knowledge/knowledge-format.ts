import type { Language } from '../../../shared/types.js';

// How the knowledge pages write dates and paths: one place, so every page of the section agrees.

/** A day and time in BOT_TIMEZONE, in the page's language (Thai dates use the Buddhist era, as Thai readers expect). */
export function timeText(at: Date, language: Language, timeZone: string): string {
  return new Intl.DateTimeFormat(language === 'th' ? 'th-TH' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at);
}

/** The page of one knowledge base (ids are `kb` + letters and digits, but encoded all the same). */
export function basePath(knowledgeBaseId: string): string {
  return `/admin/kb/${encodeURIComponent(knowledgeBaseId)}`;
}
