import { randomBytes } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import { z } from 'zod';
import { createIndexTable, dropIndexTable, isKnowledgeBaseId } from './schema.js';
import {
  isValidKnowledgeBaseName,
  maxDescriptionLength,
  type BindResult,
  type CreateKnowledgeBaseResult,
  type KnowledgeBase,
  type KnowledgeBaseSummary,
  type SpaceMoveResult,
} from '../types.js';

// Knowledge bases and their bindings to conversations.

const knowledgeBaseRow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  space_key: z.string(),
  created_by: z.string(),
  created_at: z.number(),
});

const summaryRow = z.object({
  document_count: z.number(),
  chunk_count: z.number(),
  total_bytes: z.number(),
  bound_count: z.number(),
});

function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

const idAlphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

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
    createdAt: new Date(parsed.created_at),
  };
}

export class KnowledgeBaseRecords {
  private readonly insert: Statement;
  private readonly byId: Statement;
  private readonly nameTaken: Statement;
  private readonly byReference: Statement;
  private readonly all: Statement;
  private readonly bySpace: Statement;
  private readonly summary: Statement;
  private readonly remove: Statement;
  private readonly removeTerms: Statement;
  private readonly insertBinding: Statement;
  private readonly removeBinding: Statement;
  private readonly bound: Statement;
  private readonly boundTo: Statement;
  private readonly moveToSpace: Statement;
  private readonly moveBindings: Statement;
  private readonly dropMovedBindings: Statement;

  constructor(private readonly database: Database) {
    const columns = 'id, name, description, space_key, created_by, created_at';
    this.insert = database.prepare(
      'INSERT INTO knowledge_bases (id, name, name_key, description, space_key, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.byId = database.prepare(`SELECT ${columns} FROM knowledge_bases WHERE id = ?`);
    this.nameTaken = database.prepare('SELECT 1 FROM knowledge_bases WHERE space_key = ? AND name_key = ?');
    this.byReference = database.prepare(`SELECT ${columns} FROM knowledge_bases WHERE id = ? OR name_key = ? ORDER BY created_at, id`);
    this.all = database.prepare(`SELECT ${columns} FROM knowledge_bases ORDER BY created_at, id`);
    this.bySpace = database.prepare(`SELECT ${columns} FROM knowledge_bases WHERE space_key = ? ORDER BY created_at, id`);
    this.summary = database.prepare(`SELECT
        (SELECT count(*) FROM documents WHERE knowledge_base_id = $id) AS document_count,
        (SELECT count(*) FROM chunks WHERE knowledge_base_id = $id) AS chunk_count,
        (SELECT coalesce(sum(bytes), 0) FROM documents WHERE knowledge_base_id = $id) AS total_bytes,
        (SELECT count(*) FROM bindings WHERE knowledge_base_id = $id) AS bound_count`);
    this.remove = database.prepare('DELETE FROM knowledge_bases WHERE id = ?');
    this.removeTerms = database.prepare('DELETE FROM term_stats WHERE knowledge_base_id = ?');
    this.insertBinding = database.prepare('INSERT OR IGNORE INTO bindings (conversation_key, knowledge_base_id, bound_by, bound_at) VALUES (?, ?, ?, ?)');
    this.removeBinding = database.prepare('DELETE FROM bindings WHERE conversation_key = ? AND knowledge_base_id = ?');
    this.moveToSpace = database.prepare('UPDATE knowledge_bases SET space_key = ? WHERE id = ?');
    // `<from>` → `<to>`, `<from>:<thread>` → `<to>:<thread>`.
    const movedKey = '$to || substr(conversation_key, length($from) + 1)';
    const ofSpace = "(conversation_key = $from OR substr(conversation_key, 1, length($from) + 1) = $from || ':')";
    this.moveBindings = database.prepare(`UPDATE OR IGNORE bindings SET conversation_key = ${movedKey} WHERE ${ofSpace}`);
    this.dropMovedBindings = database.prepare(`DELETE FROM bindings WHERE ${ofSpace}`);
    this.bound = database.prepare('SELECT knowledge_base_id FROM bindings WHERE conversation_key = ? ORDER BY bound_at, rowid');
    this.boundTo = database.prepare('SELECT conversation_key FROM bindings WHERE knowledge_base_id = ? ORDER BY conversation_key LIMIT ?');
  }

  create(input: { name: string; description: string; spaceKey: string; createdBy: string; now: Date }): CreateKnowledgeBaseResult {
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
    const created = this.database.transaction(() => {
      if (this.nameTaken.get(input.spaceKey, nameKey(name)) !== undefined) return false;
      this.insert.run(
        knowledgeBase.id,
        name,
        nameKey(name),
        knowledgeBase.description,
        knowledgeBase.spaceKey,
        knowledgeBase.createdBy,
        knowledgeBase.createdAt.getTime(),
      );
      createIndexTable(this.database, knowledgeBase.id);
      return true;
    })();
    return created ? { ok: true, knowledgeBase } : { ok: false, reason: 'duplicate-name' };
  }

  get(id: string): KnowledgeBase | undefined {
    const row = this.byId.get(id);
    return row === undefined ? undefined : toKnowledgeBase(row);
  }

  find(reference: string): KnowledgeBase[] {
    const trimmed = reference.trim();
    return this.byReference.all(trimmed, nameKey(trimmed)).map(toKnowledgeBase);
  }

  list(spaceKey?: string): KnowledgeBase[] {
    const rows = spaceKey === undefined ? this.all.all() : this.bySpace.all(spaceKey);
    return rows.map(toKnowledgeBase);
  }

  summarize(id: string): KnowledgeBaseSummary | undefined {
    const knowledgeBase = this.get(id);
    if (!knowledgeBase) return undefined;
    const counts = summaryRow.parse(this.summary.get({ id }));
    return {
      ...knowledgeBase,
      documentCount: counts.document_count,
      chunkCount: counts.chunk_count,
      totalBytes: counts.total_bytes,
      boundConversationCount: counts.bound_count,
    };
  }

  delete(id: string): boolean {
    if (!isKnowledgeBaseId(id)) return false;
    return this.database.transaction(() => {
      const removed = this.remove.run(id).changes > 0;
      if (removed) {
        this.removeTerms.run(id);
        dropIndexTable(this.database, id);
      }
      return removed;
    })();
  }

  bind(conversationKey: string, knowledgeBaseId: string, boundBy: string, now: Date): BindResult {
    if (!this.get(knowledgeBaseId)) return 'unknown-knowledge-base';
    const changes = this.insertBinding.run(conversationKey, knowledgeBaseId, boundBy, now.getTime()).changes;
    return changes > 0 ? 'bound' : 'already-bound';
  }

  unbind(conversationKey: string, knowledgeBaseId: string): boolean {
    return this.removeBinding.run(conversationKey, knowledgeBaseId).changes > 0;
  }

  /** One transaction: the space's knowledge bases (unless the name is taken there), then its conversations' bindings. */
  moveSpace(from: string, to: string): SpaceMoveResult {
    return this.database.transaction(() => {
      const keptBehind: string[] = [];
      let knowledgeBases = 0;
      for (const knowledgeBase of this.list(from)) {
        if (this.nameTaken.get(to, nameKey(knowledgeBase.name)) !== undefined) {
          keptBehind.push(knowledgeBase.name);
          continue;
        }
        knowledgeBases += this.moveToSpace.run(to, knowledgeBase.id).changes;
      }
      // `from` itself and `from:<thread>`; a binding the new conversation already has is kept once.
      const bindings = this.moveBindings.run({ from, to }).changes;
      this.dropMovedBindings.run({ from });
      return { knowledgeBases, bindings, keptBehind };
    })();
  }

  boundConversations(knowledgeBaseId: string, limit: number): string[] {
    return this.boundTo.all(knowledgeBaseId, limit).map((row) => z.object({ conversation_key: z.string() }).parse(row).conversation_key);
  }

  boundIds(conversationKey: string): string[] {
    return this.bound.all(conversationKey).map((row) => z.object({ knowledge_base_id: z.string() }).parse(row).knowledge_base_id);
  }
}
