import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';
import type { NewDocument } from '../knowledge-backend.js';
import { vectorBytes } from '../ranking/vector-ranking.js';
import { indexTableName } from './schema.js';
import { tokenize } from '../ranking/tokenize.js';
import type { KnowledgeDocument } from '../types.js';

// Documents, their chunks, the per-KB FTS rows and the per-KB term statistics, always written together.

const documentRow = z.object({
  id: z.number(),
  knowledge_base_id: z.string(),
  title: z.string(),
  source_name: z.string(),
  type: z.enum(['text', 'markdown', 'html', 'pdf', 'docx', 'csv', 'image']),
  bytes: z.number(),
  hash: z.string(),
  added_by: z.string(),
  added_at: z.number(),
  chunk_count: z.number(),
});

export const chunkRow = z.object({
  chunk_id: z.number(),
  position: z.number(),
  page: z.number().nullable(),
  text: z.string(),
  document_id: z.number(),
  document_title: z.string(),
});

function toDocument(row: unknown): KnowledgeDocument {
  const parsed = documentRow.parse(row);
  return {
    id: parsed.id,
    knowledgeBaseId: parsed.knowledge_base_id,
    title: parsed.title,
    sourceName: parsed.source_name,
    type: parsed.type,
    bytes: parsed.bytes,
    hash: parsed.hash,
    addedBy: parsed.added_by,
    addedAt: new Date(parsed.added_at),
    chunkCount: parsed.chunk_count,
  };
}

export type { NewDocument };

export class DocumentRecords {
  private readonly insertDocument: Statement;
  private readonly insertChunk: Statement;
  private readonly byHash: Statement;
  private readonly list: Statement;
  private readonly one: Statement;
  private readonly chunksOf: Statement;
  private readonly removeDocument: Statement;
  private readonly addTerm: Statement;
  private readonly subtractTerm: Statement;
  private readonly dropEmptyTerms: Statement;
  private readonly indexStatements = new Map<string, { insert: Statement; remove: Statement }>();

  constructor(private readonly database: Database) {
    const documentColumns = `d.id, d.knowledge_base_id, d.title, d.source_name, d.type, d.bytes, d.hash, d.added_by, d.added_at,
      (SELECT count(*) FROM chunks c WHERE c.document_id = d.id) AS chunk_count`;
    this.insertDocument = database.prepare(
      'INSERT INTO documents (knowledge_base_id, title, source_name, type, bytes, hash, added_by, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertChunk = database.prepare(
      'INSERT INTO chunks (document_id, knowledge_base_id, position, page, text, tokens, token_count, embedding) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.byHash = database.prepare(`SELECT ${documentColumns} FROM documents d WHERE d.knowledge_base_id = ? AND d.hash = ?`);
    this.list = database.prepare(`SELECT ${documentColumns} FROM documents d WHERE d.knowledge_base_id = ? ORDER BY d.id`);
    this.one = database.prepare(`SELECT ${documentColumns} FROM documents d WHERE d.knowledge_base_id = ? AND d.id = ?`);
    this.chunksOf = database.prepare('SELECT id, tokens FROM chunks WHERE document_id = ?');
    this.removeDocument = database.prepare('DELETE FROM documents WHERE id = ?');
    this.addTerm = database.prepare(
      'INSERT INTO term_stats (knowledge_base_id, term, chunks) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET chunks = chunks + excluded.chunks',
    );
    this.subtractTerm = database.prepare('UPDATE term_stats SET chunks = chunks - ? WHERE knowledge_base_id = ? AND term = ?');
    this.dropEmptyTerms = database.prepare('DELETE FROM term_stats WHERE knowledge_base_id = ? AND chunks <= 0');
  }

  private index(knowledgeBaseId: string): { insert: Statement; remove: Statement } {
    let statements = this.indexStatements.get(knowledgeBaseId);
    if (!statements) {
      const table = indexTableName(knowledgeBaseId);
      statements = {
        insert: this.database.prepare(`INSERT INTO ${table} (rowid, title, body) VALUES (?, ?, ?)`),
        remove: this.database.prepare(`DELETE FROM ${table} WHERE rowid = ?`),
      };
      this.indexStatements.set(knowledgeBaseId, statements);
    }
    return statements;
  }

  /** Forget cached statements of a dropped index table. */
  forgetIndex(knowledgeBaseId: string): void {
    this.indexStatements.delete(knowledgeBaseId);
  }

  findByHash(knowledgeBaseId: string, hash: string): KnowledgeDocument | undefined {
    const row = this.byHash.get(knowledgeBaseId, hash);
    return row === undefined ? undefined : toDocument(row);
  }

  documents(knowledgeBaseId: string): KnowledgeDocument[] {
    return this.list.all(knowledgeBaseId).map(toDocument);
  }

  document(knowledgeBaseId: string, documentId: number): KnowledgeDocument | undefined {
    const row = this.one.get(knowledgeBaseId, documentId);
    return row === undefined ? undefined : toDocument(row);
  }

  /** Writes the document, its chunks, FTS rows and term counts; call inside a transaction. */
  insert(document: NewDocument): number {
    const documentId = Number(
      this.insertDocument.run(
        document.knowledgeBaseId,
        document.title,
        document.sourceName,
        document.type,
        document.bytes,
        document.hash,
        document.addedBy,
        document.addedAt.getTime(),
      ).lastInsertRowid,
    );
    const index = this.index(document.knowledgeBaseId);
    const titleTokens = tokenize(document.title);
    const titleText = titleTokens.join(' ');
    const termCounts = new Map<string, number>();
    document.chunks.forEach((chunk, chunkIndex) => {
      const vector = document.embeddings?.[chunkIndex];
      const embedding = vector ? vectorBytes(vector) : null;
      const bodyTokens = tokenize(chunk.text);
      const bodyText = bodyTokens.join(' ');
      const chunkId = this.insertChunk.run(
        documentId,
        document.knowledgeBaseId,
        chunk.position,
        chunk.page ?? null,
        chunk.text,
        bodyText,
        bodyTokens.length,
        embedding,
      ).lastInsertRowid;
      index.insert.run(chunkId, titleText, bodyText);
      for (const term of new Set([...titleTokens, ...bodyTokens])) termCounts.set(term, (termCounts.get(term) ?? 0) + 1);
    });
    for (const [term, count] of termCounts) this.addTerm.run(document.knowledgeBaseId, term, count);
    return documentId;
  }

  /** Removes a document with its chunks, FTS rows and term counts; call inside a transaction. */
  remove(knowledgeBaseId: string, documentId: number): boolean {
    const document = this.document(knowledgeBaseId, documentId);
    if (!document) return false;
    const index = this.index(knowledgeBaseId);
    const titleTokens = tokenize(document.title);
    const termCounts = new Map<string, number>();
    for (const row of this.chunksOf.all(documentId)) {
      const chunk = z.object({ id: z.number(), tokens: z.string() }).parse(row);
      index.remove.run(chunk.id);
      const bodyTokens = chunk.tokens ? chunk.tokens.split(' ') : [];
      for (const term of new Set([...titleTokens, ...bodyTokens])) termCounts.set(term, (termCounts.get(term) ?? 0) + 1);
    }
    for (const [term, count] of termCounts) this.subtractTerm.run(count, knowledgeBaseId, term);
    this.dropEmptyTerms.run(knowledgeBaseId);
    this.removeDocument.run(documentId);
    return true;
  }
}
