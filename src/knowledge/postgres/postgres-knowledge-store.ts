import pg from 'pg';
import { z } from 'zod';
import { describeError } from '../../shared/describe-error.js';
import { composeKnowledgeStore } from '../compose-knowledge-store.js';
import type { KnowledgeBackend, KnowledgeStoreCommonOptions } from '../knowledge-backend.js';
import { defaultTrigramWeight } from '../ranking/candidate-rescoring.js';
import { defaultPostingBudget } from '../ranking/query-terms.js';
import type { KnowledgeStore } from '../types.js';
import { connectionProblem, databaseAddress } from './connection-problem.js';
import { DocumentQueries } from './document-queries.js';
import { FullTextCandidates } from './full-text-candidates.js';
import { KnowledgeBaseQueries } from './knowledge-base-queries.js';
import { hasVectorColumn, migrate } from './schema-migrations.js';
import { VectorQueries } from './vector-queries.js';

// The PostgreSQL backend (DATABASE_URL). Opening is synchronous for the composition root: the pool is made at once
// and connecting + migrating starts in the background; every method waits for it. A failed opening is tried again by
// the next call, so the store works once PostgreSQL is back; `ready()` tells how the opening went.

export interface PostgresKnowledgeStoreOptions extends KnowledgeStoreCommonOptions {
  databaseUrl: string;
  /** Connections in the pool. */
  poolSize?: number;
  /** How long a new connection may take. */
  connectTimeoutMs?: number;
}

export interface PostgresKnowledgeStore extends KnowledgeStore {
  /** Resolves once connected and migrated; rejects with a PostgresConnectionError naming the server (no password). */
  ready(): Promise<void>;
}

const chunkRow = z.object({
  chunk_id: z.coerce.number(),
  position: z.number(),
  page: z.number().nullable(),
  text: z.string(),
  document_id: z.coerce.number(),
  document_title: z.string(),
});

export function openPostgresKnowledgeStore(options: PostgresKnowledgeStoreOptions): PostgresKnowledgeStore {
  const url = options.databaseUrl;
  const connectTimeoutMs = options.connectTimeoutMs ?? 5000;
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, connectionTimeoutMillis: connectTimeoutMs });
  // An idle connection the server closed (restart, failover) is an event, not a crash; the pool drops it.
  pool.on('error', (error) => options.log.warn({ server: databaseAddress(url), reason: describeError(error) }, 'knowledge: PostgreSQL connection lost'));

  let vectorColumn = false;
  async function open(): Promise<void> {
    try {
      await migrate(pool);
      vectorColumn = await hasVectorColumn(pool);
    } catch (error) {
      throw connectionProblem(url, error, connectTimeoutMs);
    }
  }
  let opening = open();
  opening.catch(() => undefined); // seen through ready() or the next call, never unhandled
  let closed = false;

  async function opened(): Promise<void> {
    if (closed) throw new Error('the knowledge store is closed');
    try {
      await opening;
    } catch {
      opening = open();
      opening.catch(() => undefined);
      await opening;
    }
  }

  const knowledgeBases = new KnowledgeBaseQueries(pool);
  const documents = new DocumentQueries(pool, () => vectorColumn);
  const trigramWeight = Math.min(1, Math.max(0, options.trigramWeight ?? defaultTrigramWeight));
  const fullText = new FullTextCandidates(pool, options.postingBudget ?? defaultPostingBudget, trigramWeight);
  const vectors = new VectorQueries(pool, () => vectorColumn);

  /** Each method waits for the opening first. */
  function after<Arguments extends unknown[], Result>(work: (...args: Arguments) => Promise<Result>): (...args: Arguments) => Promise<Result> {
    return async (...args) => {
      await opened();
      return work(...args);
    };
  }

  const backend: KnowledgeBackend = {
    createKnowledgeBase: after((input) => knowledgeBases.create(input)),
    getKnowledgeBase: after((id) => knowledgeBases.get(id)),
    findKnowledgeBases: after((reference) => knowledgeBases.find(reference)),
    listKnowledgeBases: after((filter) => knowledgeBases.list(filter?.spaceKey)),
    summarize: after((id) => knowledgeBases.summarize(id)),
    deleteKnowledgeBase: after(async (id) => {
      fullText.forget(id);
      vectors.forget(id);
      return knowledgeBases.delete(id);
    }),
    findByHash: after((knowledgeBaseId, hash) => documents.findByHash(knowledgeBaseId, hash)),
    writeDocument: after((document) => documents.write(document)),
    documents: after((knowledgeBaseId) => documents.documents(knowledgeBaseId)),
    removeDocument: after((knowledgeBaseId, documentId) => documents.remove(knowledgeBaseId, documentId)),
    bind: after((conversationKey, knowledgeBaseId, boundBy, now) => knowledgeBases.bind(conversationKey, knowledgeBaseId, boundBy, now)),
    unbind: after((conversationKey, knowledgeBaseId) => knowledgeBases.unbind(conversationKey, knowledgeBaseId)),
    boundKnowledgeBaseIds: after((conversationKey) => knowledgeBases.boundIds(conversationKey)),
    boundConversationKeys: after((knowledgeBaseId, limit) => knowledgeBases.boundConversations(knowledgeBaseId, limit)),
    moveSpace: after((from, to) => knowledgeBases.moveSpace(from, to)),
    hasVectors: after((knowledgeBaseIds) => vectors.hasVectors(knowledgeBaseIds)),
    fullTextSearch: after((knowledgeBaseId, query, limit) => fullText.search(knowledgeBaseId, query, limit)),
    nearestChunks: after((knowledgeBaseId, vector, limit) => vectors.nearest(knowledgeBaseId, vector, limit)),
    chunkRows: after(async (chunkIds) => {
      const result = await pool.query(
        `SELECT c.id AS chunk_id, c.position, c.page, c.text, d.id AS document_id, d.title AS document_title
         FROM chunks c JOIN documents d ON d.id = c.document_id WHERE c.id = ANY($1::bigint[])`,
        [chunkIds],
      );
      return result.rows.map((row) => {
        const parsed = chunkRow.parse(row);
        return {
          chunkId: parsed.chunk_id,
          position: parsed.position,
          page: parsed.page,
          text: parsed.text,
          documentId: parsed.document_id,
          documentTitle: parsed.document_title,
        };
      });
    }),
    async close() {
      if (closed) return;
      closed = true;
      await opening.catch(() => undefined);
      await pool.end();
    },
  };
  return { ...composeKnowledgeStore(backend, options), ready: () => opening };
}
