import { describe, expect, it } from 'vitest';
import { createQueryKnowledgeTool, type KnowledgePassage, type KnowledgeReader } from '../../../../agent/tools/query-knowledge/index.js';
import type { ToolContext } from '../../../../agent/tools/tool.js';
import { citationsFor, passageSourceMarker, sourceLabel } from '../../../../src/shared/citations.js';
import { silentLogger } from '../../../../src/shared/log.js';

const origin = { knowledgeBaseId: 'kbaaaaaaaaaa', knowledgeBaseName: 'คู่มือ', documentId: 7, documentTitle: 'scan.pdf' };

describe('the page in a passage’s label', () => {
  it('"KB › title, หน้า 3" / "p. 3"; no page part for a document without pages', () => {
    expect(sourceLabel({ ...origin, page: 3 }, 'th')).toBe('คู่มือ › scan.pdf, หน้า 3');
    expect(sourceLabel({ ...origin, page: 3 }, 'en')).toBe('คู่มือ › scan.pdf, p. 3');
    expect(sourceLabel(origin, 'th')).toBe('คู่มือ › scan.pdf');
    expect(passageSourceMarker({ ...origin, page: 12 }, 'th')).toBe('[source: คู่มือ › scan.pdf, หน้า 12]');
  });

  it('one citation per document and page, in order of first use', () => {
    const passages = [
      { ...origin, page: 2 },
      { ...origin, page: 1 },
      { ...origin, page: 2 },
      { ...origin, documentId: 8, documentTitle: 'faq.md' },
      { ...origin, documentId: 8, documentTitle: 'faq.md' },
    ];
    expect(citationsFor(passages, 'en')).toEqual([{ label: 'คู่มือ › scan.pdf, p. 2' }, { label: 'คู่มือ › scan.pdf, p. 1' }, { label: 'คู่มือ › faq.md' }]);
  });

  it('query_knowledge writes after each passage exactly the label its citations carry', async () => {
    const hits: KnowledgePassage[] = [
      { ...origin, page: 2, text: 'สมาชิกได้รับส่วนลดทุกวันพุธ', position: 4, score: 3 },
      { ...origin, page: 1, text: 'สมัครสมาชิกได้ที่หน้าร้าน', position: 0, score: 1 },
    ];
    const reader: KnowledgeReader = {
      getKnowledgeBase: async (id) => (id === origin.knowledgeBaseId ? { id, name: origin.knowledgeBaseName, description: '' } : undefined),
      summarize: async () => ({ documentCount: 1 }),
      search: async () => hits,
    };
    const tool = createQueryKnowledgeTool(reader);
    const context: ToolContext = {
      conversationKey: 'discord:chan-1',
      spaceKey: 'discord:guild-1',
      boundKnowledgeBaseIds: [origin.knowledgeBaseId],
      images: [],
      readImageText: () => Promise.resolve({ ok: false, failure: { code: 'unavailable', detail: 'no images here' } }),
      showImageToModel: () => Promise.resolve(false),
      language: 'th',
      dataDir: '/nonexistent',
      secrets: [],
      signal: new AbortController().signal,
      log: silentLogger(),
      complete: async () => Promise.reject(new Error('query_knowledge must not call the model')),
      progress: () => undefined,
      now: () => new Date('2026-03-01T09:00:00Z'),
      turnState: new Map(),
    };
    const result = await tool.execute(tool.input.parse({ action: 'query', query_text: 'ส่วนลด' }), context);
    expect(result.citations).toEqual([{ label: 'คู่มือ › scan.pdf, หน้า 2' }, { label: 'คู่มือ › scan.pdf, หน้า 1' }]);
    for (const citation of result.citations ?? []) expect(result.content).toContain(`[source: ${citation.label}]`);
  });
});
