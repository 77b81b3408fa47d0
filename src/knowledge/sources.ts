import type { Citation } from '../shared/types.js';
import { sourceMarker as formatMarker } from '../shared/source-markers.js';
import type { RetrievalHit } from './types.js';

// How a passage names its origin, identically in the tool result, the naive-RAG block and the source list.

/** "KB name › document title" */
export function sourceLabel(hit: Pick<RetrievalHit, 'knowledgeBaseName' | 'documentTitle'>): string {
  return `${hit.knowledgeBaseName} › ${hit.documentTitle}`;
}

/** The tag placed after each passage, in the same shape as web_search's `[source: URL]`. */
export function sourceMarker(hit: Pick<RetrievalHit, 'knowledgeBaseName' | 'documentTitle'>): string {
  return formatMarker(sourceLabel(hit));
}

/** One citation per document used, in order of first use. */
export function citationsFor(hits: readonly RetrievalHit[]): Citation[] {
  const seen = new Set<string>();
  const citations: Citation[] = [];
  for (const hit of hits) {
    const key = `${hit.knowledgeBaseId}\u0000${hit.documentId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    citations.push({ label: sourceLabel(hit) });
  }
  return citations;
}
