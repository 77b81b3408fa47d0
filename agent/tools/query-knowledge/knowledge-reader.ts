import type { PassageOrigin } from '../../../src/shared/citations.js';

// What query_knowledge needs of the knowledge service, and nothing more: it never creates, binds or deletes.
// The composition root hands it the real store, which has these methods among others.

/** A knowledge base as the tool shows it. */
export interface KnowledgeBaseEntry {
  id: string;
  name: string;
  description: string;
}

/** One retrieved chunk, with the knowledge base and document it comes from. */
export interface KnowledgePassage extends PassageOrigin {
  text: string;
  /** 0-based position of the chunk in its document. */
  position: number;
  /** Higher is better; comparable between knowledge bases. */
  score: number;
}

export interface KnowledgeReader {
  getKnowledgeBase(id: string): Promise<KnowledgeBaseEntry | undefined>;
  summarize(id: string): Promise<{ documentCount: number } | undefined>;
  /** Best passages of the given knowledge bases, best first. */
  search(knowledgeBaseIds: readonly string[], query: string, topK: number): Promise<KnowledgePassage[]>;
}
