import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddingsClient } from '../../../src/knowledge/embeddings-client.js';
import type { KnowledgeStore } from '../../../src/knowledge/index.js';
import { startFakeEmbeddingsServer, type FakeEmbeddingsServer } from '../../fakes/embeddings-server.js';
import { utf8 } from '../../support/knowledge/documents.js';
import { memoryLog, type LogRecord } from '../../support/memory-log.js';
import { storeBackends, type StoreBackend } from '../../support/knowledge/store-backends.js';

const now = new Date('2026-03-01T09:00:00Z');
let server: FakeEmbeddingsServer;
const backends = storeBackends();

beforeAll(async () => {
  server = await startFakeEmbeddingsServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  server.setMode('ok');
  server.requests.length = 0;
});

async function openWith(backend: StoreBackend, withEmbeddings: boolean): Promise<{ store: KnowledgeStore; records: LogRecord[] }> {
  const { log, records } = memoryLog('warn');
  const store = await backend.open({
    log,
    ...(withEmbeddings ? { embeddings: { baseUrl: `${server.baseUrl}/`, model: 'bge-m3', apiKey: 'embed-key', timeoutMs: 500 } } : {}),
  });
  return { store, records };
}

async function seed(store: KnowledgeStore): Promise<string> {
  const created = await store.createKnowledgeBase({ name: 'policies', description: '', spaceKey: 'console:local', createdBy: 'console:owner', now });
  if (!created.ok) throw new Error(created.reason);
  const id = created.knowledgeBase.id;
  for (const [fileName, text] of [
    ['refund.txt', 'ลูกค้าขอคืนเงินได้ภายใน 30 วันหลังได้รับสินค้า'],
    ['leave.txt', 'พนักงานลาพักร้อนได้ปีละ 10 วัน'],
    ['delivery.txt', 'การจัดส่งพัสดุใช้เวลา 3 วันทำการ'],
  ] as const) {
    const added = await store.addDocument(id, { fileName, bytes: utf8(text), addedBy: 'console:owner', now });
    if (!added.ok) throw new Error(added.failure.code);
  }
  return id;
}

const warnings = (records: readonly LogRecord[]) => records.filter((record) => record.level === 40).map((record) => record.msg);

describe.each(backends)('hybrid retrieval with an embeddings server ($name backend)', (backend) => {
  const open = (withEmbeddings: boolean) => openWith(backend, withEmbeddings);

  it('finds a passage by meaning where full text alone finds nothing', async () => {
    const plain = await open(false);
    const plainKb = await seed(plain.store);
    expect(await plain.store.search([plainKb], 'money back please', 3)).toEqual([]);

    const hybrid = await open(true);
    const hybridKb = await seed(hybrid.store);
    const [best] = await hybrid.store.search([hybridKb], 'money back please', 3);
    expect(best?.documentTitle).toBe('refund.txt');
    expect(warnings(hybrid.records)).toEqual([]);
  });

  it('keeps full-text hits on top when words match, fused with vector ranks', async () => {
    const { store } = await open(true);
    const kb = await seed(store);
    const hits = await store.search([kb], 'ลาพักร้อนได้กี่วัน', 3);
    expect(hits[0]?.documentTitle).toBe('leave.txt');
    // Reciprocal-rank-fusion scores: at most 2 / (60 + 1).
    for (const hit of hits) expect(hit.score).toBeLessThanOrEqual(2 / 61);
  });

  it('sends the OpenAI embeddings request (float vectors, model, bearer key, one call per ingested batch)', async () => {
    const { store } = await open(true);
    await seed(store);
    expect(server.requests).toHaveLength(3);
    expect(server.requests[0]).toMatchObject({
      path: '/v1/embeddings',
      authorization: 'Bearer embed-key',
      model: 'bge-m3',
      encodingFormat: 'float',
      inputs: ['ลูกค้าขอคืนเงินได้ภายใน 30 วันหลังได้รับสินค้า'],
    });
  });

  it.each(['not-supported', 'model-cannot-embed', 'reset', 'hang', 'malformed'] as const)(
    'falls back to full text when the server fails at query time (%s)',
    async (mode) => {
      const { store, records } = await open(true);
      const kb = await seed(store);
      server.setMode(mode);
      const [best] = await store.search([kb], 'คืนเงินได้กี่วัน', 3);
      expect(best?.documentTitle).toBe('refund.txt');
      expect(best?.score).toBeGreaterThan(2 / 61); // a BM25 score, not a fused one
      expect(warnings(records)).toEqual(['knowledge: query embedding failed, using full text alone']);
    },
  );

  it('still indexes documents for full text when the server fails at ingestion', async () => {
    const { store, records } = await open(true);
    const created = await store.createKnowledgeBase({ name: 'kb', description: '', spaceKey: 's', createdBy: 'u', now });
    if (!created.ok) throw new Error(created.reason);
    server.setMode('not-supported');
    const added = await store.addDocument(created.knowledgeBase.id, { fileName: 'a.txt', bytes: utf8('ร้านเปิดเก้าโมงเช้า'), addedBy: 'u', now });
    expect(added).toMatchObject({ ok: true, vectors: 'failed' });
    expect(warnings(records)).toEqual(['knowledge: embeddings failed, document indexed for full text only']);
    server.setMode('ok');
    // No chunk has a vector, so the query is not even embedded.
    const requestsBefore = server.requests.length;
    expect((await store.search([created.knowledgeBase.id], 'ร้านเปิดกี่โมง', 3))[0]?.text).toBe('ร้านเปิดเก้าโมงเช้า');
    expect(server.requests.length).toBe(requestsBefore);
  });

  it('reports vectors as stored or not configured', async () => {
    for (const [withEmbeddings, expected] of [
      [true, 'stored'],
      [false, 'not-configured'],
    ] as const) {
      const { store } = await open(withEmbeddings);
      const created = await store.createKnowledgeBase({ name: 'kb', description: '', spaceKey: 's', createdBy: 'u', now });
      if (!created.ok) throw new Error(created.reason);
      expect(await store.addDocument(created.knowledgeBase.id, { fileName: 'a.txt', bytes: utf8('ข้อความ'), addedBy: 'u', now })).toMatchObject({
        ok: true,
        vectors: expected,
      });
    }
  });
});

describe('embeddings client', () => {
  it('orders vectors by their index and normalizes them to unit length', async () => {
    server.setMode('reversed');
    const client = createEmbeddingsClient({ baseUrl: server.baseUrl, model: 'm' });
    const result = await client.embed(['ขอคืนเงิน', 'ลาพักร้อน']);
    if (!result.ok) throw new Error(result.reason);
    const [refund, leave] = result.vectors;
    expect(refund?.indexOf(Math.max(...(refund ?? [])))).toBe(0);
    expect(leave?.indexOf(Math.max(...(leave ?? [])))).toBe(1);
    for (const vector of result.vectors) expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
  });

  it('splits many inputs into batches', async () => {
    const client = createEmbeddingsClient({ baseUrl: server.baseUrl, model: 'm', batchSize: 2 });
    const result = await client.embed(['a', 'b', 'c', 'd', 'e']);
    expect(result.ok && result.vectors.length).toBe(5);
    expect(server.requests.map((request) => request.inputs.length)).toEqual([2, 2, 1]);
  });

  it.each([
    ['not-supported', /^HTTP 501: .*--embeddings/],
    ['model-cannot-embed', /^HTTP 400: .*does not support embeddings/],
    ['reset', /^unreachable/],
    ['hang', /^timeout after 200 ms/],
    ['malformed', /not an embeddings list/],
  ] as const)('returns a reason instead of throwing (%s)', async (mode, reason) => {
    server.setMode(mode);
    const result = await createEmbeddingsClient({ baseUrl: server.baseUrl, model: 'm', timeoutMs: 200 }).embed(['x']);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(reason);
  });
});
