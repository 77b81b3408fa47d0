import { afterEach, describe, expect, it } from 'vitest';
import { createQueryKnowledgeTool, knowledgePolicy } from '../../../agent/tools/query-knowledge/index.js';
import type { ToolContext, ToolResult } from '../../../agent/tools/tool.js';
import type { Logger } from '../../../src/shared/log.js';
import { silentLogger } from '../../../src/shared/log.js';
import { openKnowledgeStore, type KnowledgeStore } from '../../../src/knowledge/index.js';
import { utf8 } from '../../support/knowledge/documents.js';
import { memoryLog } from '../../support/memory-log.js';
import { seededStore, seedTime } from '../../support/knowledge/seeded-store.js';

const stores: KnowledgeStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

function toolContext(bound: readonly string[], options: { log?: Logger; language?: 'th' | 'en' } = {}): ToolContext {
  return {
    conversationKey: 'discord:chan-1',
    spaceKey: 'discord:guild-1',
    boundKnowledgeBaseIds: bound,
    images: [],
    readImageText: () => Promise.resolve({ ok: false, failure: { code: 'unavailable', detail: 'no images here' } }),
    showImageToModel: () => Promise.resolve(false),
    language: options.language ?? 'en',
    dataDir: '/nonexistent',
    secrets: [],
    signal: new AbortController().signal,
    log: options.log ?? silentLogger(),
    complete: async () => Promise.reject(new Error('query_knowledge must not call the model')),
    progress: () => undefined,
    now: () => seedTime,
    turnState: new Map(),
  };
}

/** Runs the tool as the tool runner does: arguments validated by its schema first. */
async function call(store: KnowledgeStore, args: unknown, context: ToolContext): Promise<ToolResult> {
  const tool = createQueryKnowledgeTool(store);
  return tool.execute(tool.input.parse(args), context);
}

/** The store, recording which KBs were searched. */
function spied(store: KnowledgeStore, failing: ReadonlySet<string> = new Set()): { store: KnowledgeStore; searched: string[][] } {
  const searched: string[][] = [];
  return {
    searched,
    store: {
      ...store,
      search: async (ids, query, topK) => {
        searched.push([...ids]);
        if (ids.some((id) => failing.has(id))) throw new Error('SQLITE_CORRUPT: database disk image is malformed');
        return store.search(ids, query, topK);
      },
    },
  };
}

async function setup() {
  const seeded = await seededStore();
  stores.push(seeded.store);
  return seeded;
}

describe('query_knowledge: list', () => {
  it('lists the bound KBs with id, name, description and document count, and nothing else', async () => {
    const { store, faq, secret } = await setup();
    const result = await call(store, { action: 'list' }, toolContext([faq]));
    expect(result.ok).toBe(true);
    expect(result.content).toBe(`Knowledge bases available in this chat:\n- kb_id: ${faq} · name: faq · documents: 2 · description: faq documents`);
    expect(result.content).not.toContain(secret);
  });

  it('says so when nothing is bound', async () => {
    const { store } = await setup();
    expect(await call(store, { action: 'list' }, toolContext([], { language: 'th' }))).toEqual({
      ok: true,
      content: 'ห้องนี้ไม่มีคลังความรู้ที่ผูกไว้ ให้ตอบโดยไม่ใช้คลังความรู้',
    });
  });
});

describe('query_knowledge: query', () => {
  it('searches every bound KB by default; passages carry [source: …] markers and citations', async () => {
    const { store, faq } = await setup();
    const result = await call(store, { action: 'query', query_text: 'คืนเงินได้ภายในกี่วัน' }, toolContext([faq]));
    expect(result.ok).toBe(true);
    expect(result.content).toContain('[1] การคืนเงิน\n\nลูกค้าขอคืนเงินได้ภายใน 30 วันหลังได้รับสินค้า\n[source: faq › refund.md]');
    expect(result.citations?.[0]).toEqual({ label: 'faq › refund.md' });
    expect(new Set(result.citations?.map((citation) => citation.label)).size).toBe(result.citations?.length);
  });

  it('accepts a bound KB by name as well as by id', async () => {
    const { store, faq } = await setup();
    const result = await call(store, { action: 'query', kb_id: 'FAQ', query_text: 'ร้านเปิดกี่โมง' }, toolContext([faq]));
    expect(result.ok).toBe(true);
    expect(result.content).toContain('[source: faq › hours.txt]');
  });

  it.each([
    ['kb_id of an unbound KB', (secret: string) => ({ kb_id: secret })],
    ['kb_ids mixing bound and unbound', (secret: string, faq: string) => ({ kb_ids: [faq, secret] })],
    ['the unbound KB by name', () => ({ kb_id: 'secret' })],
    ['an id that does not exist', () => ({ kb_id: 'kbnotthere00' })],
  ])('refuses %s in code, before any search, with none of its text', async (_name, pick) => {
    const { store, faq, secret } = await setup();
    const spy = spied(store);
    const args = { action: 'query', query_text: 'เงินเดือนผู้บริหาร คืนเงิน', ...pick(secret, faq) };
    const result = await call(spy.store, args, toolContext([faq]));
    expect(result.ok).toBe(false);
    const refused = 'kb_id' in args ? args.kb_id : secret;
    expect(result.content).toContain(`Refused: knowledge base ${refused} is not bound to this chat. Allowed: ${faq} (faq)`);
    expect(result.content).not.toMatch(/950,000|เงินเดือน|salary/);
    expect(result.citations ?? []).toEqual([]);
    expect(spy.searched).toEqual([]);
  });

  it('trusts the turn, not the store: a KB bound in the store but absent from the context is refused', async () => {
    const { store, faq, secret } = await setup();
    await store.bind('discord:chan-1', secret, 'discord:admin', seedTime);
    const result = await call(store, { action: 'query', kb_id: secret, query_text: 'เงินเดือน' }, toolContext([faq]));
    expect(result.ok).toBe(false);
    expect(result.content).not.toContain('950,000');
  });

  it('applies top_k to the merged results of several KBs, best first', async () => {
    const { store, faq, secret } = await setup();
    const result = await call(store, { action: 'query', kb_ids: [faq, secret], query_text: 'คืนเงิน 30 วัน', top_k: 2 }, toolContext([faq, secret]));
    expect(result.ok).toBe(true);
    expect(result.content.match(/\[source: /g)).toHaveLength(2);
    const direct = await store.search([faq, secret], 'คืนเงิน 30 วัน', 2);
    expect(result.citations).toEqual(direct.map((hit) => ({ label: `${hit.knowledgeBaseName} › ${hit.documentTitle}` })));
  });

  it('returns {results, failed_kbs} when some KBs fail and the others answer', async () => {
    const { store, faq, secret } = await setup();
    const { log, records } = memoryLog();
    const spy = spied(store, new Set([secret]));
    const result = await call(spy.store, { action: 'query', kb_ids: [faq, secret], query_text: 'คืนเงิน' }, toolContext([faq, secret], { log }));
    expect(result.ok).toBe(true);
    const body: unknown = JSON.parse(result.content);
    expect(body).toMatchObject({
      results: [{ kb_id: faq, kb_name: 'faq', document: 'refund.md' }],
      failed_kbs: [{ kb_id: secret, kb_name: 'secret', error: 'SQLITE_CORRUPT: database disk image is malformed' }],
    });
    expect(result.content).toContain('[source: faq › refund.md]');
    expect(result.citations).toEqual([{ label: 'faq › refund.md' }]);
    expect(spy.searched).toEqual([[faq], [secret]]);
    expect(records.find((record) => record.msg === 'query_knowledge: knowledge base failed')).toMatchObject({ knowledgeBaseId: secret });
    expect(records.find((record) => record.msg === 'query_knowledge: done')).toMatchObject({ merged: 1, failed: 1, returned: 1 });
  });

  it('fails softly when every KB fails, or when nothing is bound, or query_text is missing', async () => {
    const { store, faq } = await setup();
    const failing = spied(store, new Set([faq])).store;
    expect(await call(failing, { action: 'query', query_text: 'คืนเงิน' }, toolContext([faq]))).toMatchObject({
      ok: false,
      content: expect.stringContaining(faq),
    });
    expect(await call(store, { action: 'query', query_text: 'คืนเงิน' }, toolContext([]))).toMatchObject({ ok: false });
    expect(await call(store, { action: 'query' }, toolContext([faq]))).toEqual({ ok: false, content: 'action "query" needs query_text (what to look for).' });
  });

  it('reports an empty result plainly', async () => {
    const { store, faq } = await setup();
    expect(await call(store, { action: 'query', query_text: 'ภูเขาไฟฟูจิ' }, toolContext([faq]))).toEqual({
      ok: true,
      content: 'Nothing about "ภูเขาไฟฟูจิ" in this chat\'s knowledge bases.',
      citations: [],
    });
  });

  it('logs each step with structured fields and without the passages or the whole query', async () => {
    const { store, faq } = await setup();
    const { log, records } = memoryLog();
    const query = 'ลูกค้าขอคืนเงินได้ภายในกี่วันหลังจากที่ได้รับสินค้าแล้วครับ';
    await call(store, { action: 'query', query_text: query, top_k: 3 }, toolContext([faq], { log }));
    expect(records.map((record) => record.msg)).toEqual([
      'query_knowledge: call started',
      'query_knowledge: retrieval requested',
      'query_knowledge: knowledge base searched',
      'query_knowledge: done',
    ]);
    expect(records[0]).toMatchObject({ level: 30, conversationKey: 'discord:chan-1', action: 'query', parameterKeys: ['action', 'query_text', 'top_k'] });
    expect(records[1]).toMatchObject({ knowledgeBaseIds: [faq], topK: 3, queryLength: query.length });
    expect(records[2]).toMatchObject({ knowledgeBaseId: faq, count: 2 });
    expect(records[3]).toMatchObject({ merged: 2, failed: 0, returned: 2 });
    const logged = JSON.stringify(records);
    expect(logged).not.toContain(query.slice(0, 12));
    expect(logged).not.toContain('หลังได้รับสินค้า');
  });
});

describe('query_knowledge: input schema', () => {
  const tool = createQueryKnowledgeTool(openKnowledgeStore({ path: ':memory:', log: silentLogger() }));
  it.each([
    [{ action: 'list' }, true],
    [{ action: 'query', query_text: 'x', top_k: '3' }, true],
    [{ action: 'query', query_text: 'x', top_k: 20 }, true],
    [{ action: 'query', query_text: 'x', top_k: 0 }, false],
    [{ action: 'query', query_text: 'x', top_k: 21 }, false],
    [{ action: 'query', query_text: 'x', top_k: 2.5 }, false],
    [{ action: 'delete' }, false],
    [{ action: 'query', kb_ids: [] }, false],
    [{ action: 'query', query_text: '' }, false],
  ])('%j valid: %s', (args, valid) => {
    expect(tool.input.safeParse(args).success).toBe(valid);
  });
});

describe('knowledgePolicy', () => {
  it('names the tool and its actions in both languages and names no knowledge base', () => {
    for (const text of [knowledgePolicy.th, knowledgePolicy.en]) {
      expect(text).toContain('query_knowledge');
      expect(text).toContain('"query"');
      expect(text).toContain('"list"');
      expect(text).not.toMatch(/kb[a-z0-9]{10}|\{/);
    }
    expect(knowledgePolicy.th).toMatch(/[\u0e00-\u0e7f]/);
  });
});

describe('documents added later', () => {
  it('are found by the next call', async () => {
    const { store, faq } = await setup();
    expect((await call(store, { action: 'query', query_text: 'ที่จอดรถ' }, toolContext([faq]))).citations).toEqual([]);
    await store.addDocument(faq, { fileName: 'parking.txt', bytes: utf8('ที่จอดรถอยู่ชั้นใต้ดิน'), addedBy: 'u', now: seedTime });
    expect((await call(store, { action: 'query', query_text: 'ที่จอดรถ' }, toolContext([faq]))).citations).toEqual([{ label: 'faq › parking.txt' }]);
  });
});
