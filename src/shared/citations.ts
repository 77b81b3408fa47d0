import { sourceMarker } from './source-markers.js';
import type { Citation } from './types.js';

// How a knowledge-base passage names its origin, identically in the query_knowledge result, the naive-RAG
// block and the source list (the sources guard matches the label, so the three must agree).

/** The knowledge base and document a passage comes from. */
export interface PassageOrigin {
  knowledgeBaseId: string;
  knowledgeBaseName: string;
  documentId: number;
  documentTitle: string;
}

/** "KB name › document title" */
export function sourceLabel(origin: Pick<PassageOrigin, 'knowledgeBaseName' | 'documentTitle'>): string {
  return `${origin.knowledgeBaseName} › ${origin.documentTitle}`;
}

/** The tag placed after each passage, in the same shape as web_search's `[source: URL]`. */
export function passageSourceMarker(origin: Pick<PassageOrigin, 'knowledgeBaseName' | 'documentTitle'>): string {
  return sourceMarker(sourceLabel(origin));
}

/** One citation per document used, in order of first use. */
export function citationsFor(passages: readonly PassageOrigin[]): Citation[] {
  const seen = new Set<string>();
  const citations: Citation[] = [];
  for (const passage of passages) {
    const key = `${passage.knowledgeBaseId}\u0000${passage.documentId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    citations.push({ label: sourceLabel(passage) });
  }
  return citations;
}
