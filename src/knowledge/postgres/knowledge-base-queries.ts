import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { z } from 'zod';
import {
  isValidKnowledgeBaseName,
  maxDescriptionLength,
  type BindResult,
  type CreateKnowledgeBaseResult,
  type KnowledgeBase,
  type KnowledgeBaseSummary,
  type SpaceMoveResult,
} from '../types.js';

// Knowledge bases and their bindings to conversations, the same rules as sqlite/knowledge-base-records.ts.

const knowledgeBaseRow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  space_key: z.string(),
  created_by: z.string(),
  created_at: z.date(),
});

const summaryRow = z.object({
  document_count: z.coerce.number(),
  chunk_count: z.coerce.number(),
  total_bytes: z.coerce.number(),
  bound_count: z.coerce.number(),
});

const columns = 'id, name, description, space_key, created_by, created_at';
const knowledgeBaseIdPattern = /^kb[a-z0-9]{10}$/;
const idAlphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

function newKnowledgeBaseId(): string {
  return `kb${Array.from(randomBytes(10), (byte) => idAlphabet[byte % idAlphabet.length]).join('')}`;
}

function toKnowledgeBase(row: unknown): KnowledgeBase {
  const parsed = knowledgeBaseRow.parse(row);
  return {
    id: parsed.id,
    name: parsed.name,
    description: parsed.description,
    spaceKey: parsed.space_key,
    createdBy: parsed.created_by,
    createdAt: parsed.created_at,
  };
}

/** Runs `work` in one transaction on one pooled connection. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export class KnowledgeBaseQueries {
  constructor(private readonly pool: pg.Pool) {}

  async create(input: { name: string; description: string; spaceKey: string; createdBy: string; now: Date }): Promise<CreateKnowledgeBaseResult> {
    const name = input.name.normalize('NFC');
    if (!isValidKnowledgeBaseName(name)) return { ok: false, reason: 'invalid-name' };
    const knowledgeBase: KnowledgeBase = {
      id: newKnowledgeBaseId(),
      name,
      description: input.description.trim().slice(0, maxDescriptionLength),
      spaceKey: input.spaceKey,
      createdBy: input.createdBy,
      createdAt: input.now,
    };
    const inserted = await this.pool.query(
      `INSERT INTO knowledge_bases (id, name, name_key, description, space_key, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT (space_key, name_key) DO NOTHING`,
      [knowledgeBase.id, name, nameKey(name), knowledgeBase.description, knowledgeBase.spaceKey, knowledgeBase.createdBy, knowledgeBase.createdAt],
    );
    return inserted.rowCount === 1 ? { ok: true, knowledgeBase } : { ok: false, reason: 'duplicate-name' };
  }

  async get(id: string): Promise<KnowledgeBase | undefined> {
    const result = await this.pool.query(`SELECT ${columns} FROM knowledge_bases WHERE id = $1`, [id]);
    return result.rows[0] === undefined ? undefined : toKnowledgeBase(result.rows[0]);
  }

  async find(reference: string): Promise<KnowledgeBase[]> {
    const trimmed = reference.trim();
    const result = await this.pool.query(`SELECT ${columns} FROM knowledge_bases WHERE id = $1 OR name_key = $2 ORDER BY created_at, id`, [
      trimmed,
      nameKey(trimmed),
    ]);
    return result.rows.map(toKnowledgeBase);
  }

  async list(spaceKey?: string): Promise<KnowledgeBase[]> {
    const result =
      spaceKey === undefined
        ? await this.pool.query(`SELECT ${columns} FROM knowledge_bases ORDER BY created_at, id`)
        : await this.pool.query(`SELECT ${columns} FROM knowledge_bases WHERE space_key = $1 ORDER BY created_at, id`, [spaceKey]);
    return result.rows.map(toKnowledgeBase);
  }

  async summarize(id: string): Promise<KnowledgeBaseSummary | undefined> {
    const knowledgeBase = await this.get(id);
    if (!knowledgeBase) return undefined;
    const result = await this.pool.query(
      `SELECT
        (SELECT count(*) FROM documents WHERE knowledge_base_id = $1) AS document_count,
        (SELECT count(*) FROM chunks WHERE knowledge_base_id = $1) AS chunk_count,
        (SELECT coalesce(sum(bytes), 0) FROM documents WHERE knowledge_base_id = $1) AS total_bytes,
        (SELECT count(*) FROM bindings WHERE knowledge_base_id = $1) AS bound_count`,
      [id],
    );
    const counts = summaryRow.parse(result.rows[0]);
    return {
      ...knowledgeBase,
      documentCount: counts.document_count,
      chunkCount: counts.chunk_count,
      totalBytes: counts.total_bytes,
      boundConversationCount: counts.bound_count,
    };
  }

  /** Documents, chunks, term counts and bindings go with it (ON DELETE CASCADE). */
  async delete(id: string): Promise<boolean> {
    if (!knowledgeBaseIdPattern.test(id)) return false;
    return ((await this.pool.query('DELETE FROM knowledge_bases WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  async bind(conversationKey: string, knowledgeBaseId: string, boundBy: string, now: Date): Promise<BindResult> {
    const result = await this.pool.query(
      `INSERT INTO bindings (conversation_key, knowledge_base_id, bound_by, bound_at)
       SELECT $1, id, $3, $4 FROM knowledge_bases WHERE id = $2
       ON CONFLICT DO NOTHING RETURNING 1`,
      [conversationKey, knowledgeBaseId, boundBy, now],
    );
    if (result.rowCount === 1) return 'bound';
    return (await this.get(knowledgeBaseId)) ? 'already-bound' : 'unknown-knowledge-base';
  }

  async unbind(conversationKey: string, knowledgeBaseId: string): Promise<boolean> {
    const result = await this.pool.query('DELETE FROM bindings WHERE conversation_key = $1 AND knowledge_base_id = $2', [conversationKey, knowledgeBaseId]);
    return (result.rowCount ?? 0) > 0;
  }

  async boundConversations(knowledgeBaseId: string, limit: number): Promise<string[]> {
    const result = await this.pool.query('SELECT conversation_key FROM bindings WHERE knowledge_base_id = $1 ORDER BY conversation_key COLLATE "C" LIMIT $2', [
      knowledgeBaseId,
      limit,
    ]);
    return result.rows.map((row) => z.object({ conversation_key: z.string() }).parse(row).conversation_key);
  }

  async boundIds(conversationKey: string): Promise<string[]> {
    const result = await this.pool.query('SELECT knowledge_base_id FROM bindings WHERE conversation_key = $1 ORDER BY bound_at, bound_order', [
      conversationKey,
    ]);
    return result.rows.map((row) => z.object({ knowledge_base_id: z.string() }).parse(row).knowledge_base_id);
  }

  /** One transaction: the space's knowledge bases (unless the name is taken there), then its conversations' bindings. */
  async moveSpace(from: string, to: string): Promise<SpaceMoveResult> {
    return inTransaction(this.pool, async (client) => {
      const keptBehind: string[] = [];
      let knowledgeBases = 0;
      const own = await client.query(`SELECT ${columns} FROM knowledge_bases WHERE space_key = $1 ORDER BY created_at, id FOR UPDATE`, [from]);
      for (const knowledgeBase of own.rows.map(toKnowledgeBase)) {
        const taken = await client.query('SELECT 1 FROM knowledge_bases WHERE space_key = $1 AND name_key = $2', [to, nameKey(knowledgeBase.name)]);
        if ((taken.rowCount ?? 0) > 0) {
          keptBehind.push(knowledgeBase.name);
          continue;
        }
        knowledgeBases += (await client.query('UPDATE knowledge_bases SET space_key = $1 WHERE id = $2', [to, knowledgeBase.id])).rowCount ?? 0;
      }
      // `from` itself and `from:<thread>`; a binding the new conversation already has is kept once.
      const ofSpace = "(conversation_key = $1::text OR left(conversation_key, length($1::text) + 1) = $1::text || ':')";
      const movedKey = '$2::text || substr(conversation_key, length($1::text) + 1)';
      const moved = await client.query(
        `UPDATE bindings b SET conversation_key = ${movedKey} WHERE ${ofSpace}
         AND NOT EXISTS (SELECT 1 FROM bindings o WHERE o.conversation_key = $2::text || substr(b.conversation_key, length($1::text) + 1) AND o.knowledge_base_id = b.knowledge_base_id)`,
        [from, to],
      );
      await client.query(`DELETE FROM bindings WHERE ${ofSpace}`, [from]);
      return { knowledgeBases, bindings: moved.rowCount ?? 0, keptBehind };
    });
  }
}
