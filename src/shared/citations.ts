import { say, type Localized } from './i18n.js';
import { sourceMarker } from './source-markers.js';
import type { Citation, Language } from './types.js';

// How a knowledge-base passage names its origin, identically in the query_knowledge result, the naive-RAG
// block and the source list (the sources guard matches the label, so the three must agree: give all three the
// turn's language).

/** The knowledge base and document a passage comes from, and its PDF page when it has one. */
export interface PassageOrigin {
  knowledgeBaseId: string;
  knowledgeBaseName: string;
  documentId: number;
  documentTitle: string;
  /** 1-based page of a PDF; absent for other documents. */
  page?: number;
}

type LabelledOrigin = Pick<PassageOrigin, 'knowledgeBaseName' | 'documentTitle' | 'page'>;

const pagePart: Localized = { th: ', หน้า {page}', en: ', p. {page}' };

/** "KB name › document title", with ", หน้า 3" / ", p. 3" for a passage of a PDF page. */
export function sourceLabel(origin: LabelledOrigin, language: Language): string {
  const page = origin.page === undefined ? '' : say(pagePart, language, { page: origin.page });
  return `${origin.knowledgeBaseName} › ${origin.documentTitle}${page}`;
}

/** The tag placed after each passage, in the same shape as web_search's `[source: URL]`. */
export function passageSourceMarker(origin: LabelledOrigin, language: Language): string {
  return sourceMarker(sourceLabel(origin, language));
}

/** One citation per document and page used, in order of first use. */
export function citationsFor(passages: readonly PassageOrigin[], language: Language): Citation[] {
  const seen = new Set<string>();
  const citations: Citation[] = [];
  for (const passage of passages) {
    const key = `${passage.knowledgeBaseId}\u0000${passage.documentId}\u0000${passage.page ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    citations.push({ label: sourceLabel(passage, language) });
  }
  return citations;
}
