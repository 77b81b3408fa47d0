import { afterEach, describe, expect, it } from 'vitest';
import { naiveRagContext, type KnowledgeStore } from '../../../src/knowledge/index.js';
import { utf8 } from '../../support/knowledge/documents.js';
import { memoryLog } from '../../support/memory-log.js';
import { seededStore, seedTime } from '../../support/knowledge/seeded-store.js';

const stores: KnowledgeStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});

async function setup() {
  const seeded = await seededStore();
  stores.push(seeded.store);
  return seeded;
}

describe('naiveRagContext', () => {
  it('returns a localized header and numbered passages labelled "KB › document", with one citation per document', async () => {
    const { store } = await setup();
    const context = await naiveRagContext(store, 'discord:chan-1', 'คืนเงินได้ภายในกี่วัน', { language: 'th' });
    expect(context).not.toBeNull();
    const text = context?.text ?? '';
    expect(text.split('\n')[0]).toMatch(/^ข้อความจากคลังความรู้/);
    expect(text).toContain('[1] faq › refund.md\nการคืนเงิน\n\nลูกค้าขอคืนเงินได้ภายใน 30 วันหลังได้รับสินค้า');
    // hours.txt matches on "วัน" alone (ทุกวัน): far below the best score, so it is left out.
    expect(context?.citations).toEqual([{ label: 'faq › refund.md' }]);
    expect((await store.search(await store.boundKnowledgeBaseIds('discord:chan-1'), 'คืนเงินได้ภายในกี่วัน', 5)).map((hit) => hit.documentTitle)).toEqual([
      'refund.md',
      'hours.txt',
    ]);

    const english = await naiveRagContext(store, 'discord:chan-1', 'คืนเงินได้ภายในกี่วัน', { language: 'en' });
    expect(english?.text.split('\n')[0]).toMatch(/^Passages from this chat's knowledge bases/);
  });

  it('names a passage an earlier message still carries instead of repeating it, and still cites it', async () => {
    const { store } = await setup();
    const first = await naiveRagContext(store, 'discord:chan-1', 'คืนเงินได้ภายในกี่วัน', { language: 'th' });
    const again = await naiveRagContext(store, 'discord:chan-1', 'ขอคืนเงินต้องทำอย่างไร', { language: 'th', alreadySent: [first?.text ?? ''] });
    expect(again?.text).toBe('ข้อความจากเอกสารต่อไปนี้ที่ให้ไว้ในข้อความก่อนหน้ายังเกี่ยวกับคำถามนี้: faq › refund.md');
    expect(again?.citations).toEqual([{ label: 'faq › refund.md' }]);
    // A passage the earlier message does not carry is sent whole.
    const other = await naiveRagContext(store, 'discord:chan-1', 'คืนเงินได้ภายในกี่วัน', { language: 'en', alreadySent: ['unrelated'] });
    expect(other?.text).toContain('[1] faq › refund.md\n');
  });

  it('reads only the KBs bound to the conversation', async () => {
    const { store } = await setup();
    // "secret" also mentions refunds (คืนเงิน) and 30 days, but is bound nowhere.
    const context = await naiveRagContext(store, 'discord:chan-1', 'คืนเงิน 30 วัน เงินเดือนผู้บริหาร', { language: 'th' });
    expect(context?.text).not.toContain('950,000');
    expect(context?.text).not.toContain('secret');
  });

  it('is null when nothing is bound, nothing matches or the question is blank', async () => {
    const { store } = await setup();
    expect(await naiveRagContext(store, 'discord:other-channel', 'คืนเงินได้ไหม', { language: 'th' })).toBeNull();
    expect(await naiveRagContext(store, 'discord:chan-1', 'ภูเขาไฟฟูจิสูงเท่าไร', { language: 'th' })).toBeNull();
    expect(await naiveRagContext(store, 'discord:chan-1', '  ', { language: 'th' })).toBeNull();
  });

  it('keeps the passages within the character budget, cutting only the best one', async () => {
    const { store, faq } = await setup();
    const long = `นโยบายคืนเงินฉบับเต็ม ${'รายละเอียดเงื่อนไขการคืนเงิน '.repeat(60)}`;
    const added = await store.addDocument(faq, { fileName: 'long.txt', bytes: utf8(long), addedBy: 'u', now: seedTime });
    expect(added.ok).toBe(true);
    const context = await naiveRagContext(store, 'discord:chan-1', 'นโยบายคืนเงินฉบับเต็ม เงื่อนไขการคืนเงิน', { language: 'th', maxCharacters: 300, topK: 5 });
    const passages = (context?.text ?? '').split('\n\n').slice(1).join('\n\n');
    expect(passages.length).toBeLessThan(400);
    expect(context?.text).toContain('[1] faq › long.txt');
    expect(context?.text).toContain('…');
    expect(context?.citations).toEqual([{ label: 'faq › long.txt' }]);
  });

  it('returns null and logs a warning when retrieval fails', async () => {
    const { store } = await setup();
    const { log, records } = memoryLog();
    const failing: KnowledgeStore = { ...store, search: async () => Promise.reject(new Error('database is locked')) };
    expect(await naiveRagContext(failing, 'discord:chan-1', 'คืนเงิน', { language: 'th', log })).toBeNull();
    expect(records.map((record) => record.msg)).toEqual(['knowledge: naive retrieval failed']);
  });
});
