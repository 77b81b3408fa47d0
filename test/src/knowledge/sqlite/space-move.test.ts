import { describe, expect, it } from 'vitest';
import type { KnowledgeStore } from '../../../../src/knowledge/index.js';
import { storeBackends, type StoreBackend } from '../../../support/knowledge/store-backends.js';

// A space's new key (a Telegram group upgraded to a supergroup): its knowledge bases and the bindings of its
// conversations (the space's own and `<space>:<thread>` ones) move; other spaces and look-alike keys do not.

const now = new Date('2026-12-01T09:00:00Z');
const backends = storeBackends();

async function setUp(backend: StoreBackend): Promise<{ store: KnowledgeStore; create(name: string, spaceKey: string): Promise<string> }> {
  const store = await backend.open();
  const create = async (name: string, spaceKey: string) => {
    const created = await store.createKnowledgeBase({ name, description: '', spaceKey, createdBy: 'telegram:1', now });
    if (!created.ok) throw new Error(created.reason);
    return created.knowledgeBase.id;
  };
  return { store, create };
}

describe.each(backends)('KnowledgeStore.moveSpace ($name backend)', (backend) => {
  it('moves the space’s knowledge bases and its conversations’ bindings, and nothing else', async () => {
    const { store, create } = await setUp(backend);
    const manual = await create('คู่มือ', 'telegram:-400');
    const prices = await create('ราคา', 'telegram:-400');
    const elsewhere = await create('อื่น', 'telegram:-4000');
    await store.bind('telegram:-400', manual, 'telegram:1', now);
    await store.bind('telegram:-400:7', prices, 'telegram:1', now);
    await store.bind('telegram:-4000', elsewhere, 'telegram:1', now);

    expect(await store.moveSpace('telegram:-400', 'telegram:-100400')).toEqual({ knowledgeBases: 2, bindings: 2, keptBehind: [] });
    expect((await store.listKnowledgeBases({ spaceKey: 'telegram:-100400' })).map((base) => base.id).sort()).toEqual([manual, prices].sort());
    expect(await store.boundKnowledgeBaseIds('telegram:-100400')).toEqual([manual]);
    expect(await store.boundKnowledgeBaseIds('telegram:-100400:7')).toEqual([prices]);
    expect(await store.boundKnowledgeBaseIds('telegram:-400')).toEqual([]);
    // `telegram:-4000` starts with `telegram:-400` but is another chat.
    expect(await store.boundKnowledgeBaseIds('telegram:-4000')).toEqual([elsewhere]);
    expect((await store.getKnowledgeBase(elsewhere))?.spaceKey).toBe('telegram:-4000');

    expect(await store.moveSpace('telegram:-400', 'telegram:-100400')).toEqual({ knowledgeBases: 0, bindings: 0, keptBehind: [] });
  });

  it('leaves a knowledge base behind when the new space has one of the same name, and keeps a binding once', async () => {
    const { store, create } = await setUp(backend);
    const old = await create('คู่มือ', 'telegram:-400');
    const fresh = await create('คู่มือ', 'telegram:-100400');
    await store.bind('telegram:-400', fresh, 'telegram:1', now);
    await store.bind('telegram:-100400', fresh, 'telegram:1', now);

    expect(await store.moveSpace('telegram:-400', 'telegram:-100400')).toEqual({ knowledgeBases: 0, bindings: 0, keptBehind: ['คู่มือ'] });
    expect((await store.getKnowledgeBase(old))?.spaceKey).toBe('telegram:-400');
    expect(await store.boundKnowledgeBaseIds('telegram:-100400')).toEqual([fresh]);
    expect(await store.boundKnowledgeBaseIds('telegram:-400')).toEqual([]);
  });
});
