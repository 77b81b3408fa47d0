import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runAnswerGuards } from '../../../agent/guards/index.js';
import { createStreamMonitor } from '../../../agent/guards/stream-monitor.js';
import { scanForCredentials } from '../../../src/dlp/scan.js';
import { toolCall, turnRecord } from '../../support/turn-record.js';

// Zero false positives on clean Thai text: each XQuAD-th paragraph passed through as the answer, with itself
// as the tool result, must come out unchanged; streamed in small deltas it must never be cut.

const squad = z.object({
  data: z.array(z.object({ paragraphs: z.array(z.object({ context: z.string() })) })),
});
const paragraphs = squad
  .parse(JSON.parse(readFileSync(new URL('../../fixtures/knowledge/xquad.th.json', import.meta.url), 'utf8')))
  .data.flatMap((article) => article.paragraphs.map((paragraph) => paragraph.context));

describe('XQuAD-th paragraphs (clean Thai text)', () => {
  it('has the 240 paragraphs', () => {
    expect(paragraphs).toHaveLength(240);
  });

  it('no DLP finding', () => {
    const flagged = paragraphs.filter((paragraph) => scanForCredentials(paragraph).found);
    expect(flagged).toEqual([]);
  });

  it('no guard rewrites a paragraph that its own tool result supports', () => {
    const changed = paragraphs.filter((paragraph) => {
      const record = turnRecord({
        question: 'สรุปย่อหน้านี้ให้หน่อย',
        toolCalls: [toolCall({ name: 'query_knowledge', args: { action: 'query', query_text: 'x' }, result: paragraph })],
        finalText: paragraph,
      });
      const result = runAnswerGuards(record, { secrets: [] });
      return result.text !== paragraph || result.events.length > 0;
    });
    expect(changed).toEqual([]);
  });

  it('no repetition or markup abort when streamed in small deltas', () => {
    const cut = paragraphs.filter((paragraph) => {
      const monitor = createStreamMonitor({ userAskedToRepeat: false });
      for (let sent = 5; sent < paragraph.length + 5; sent += 5) {
        if (monitor.inspect(paragraph.slice(0, sent)).action === 'abort') return true;
      }
      return false;
    });
    expect(cut).toEqual([]);
  });

  it('the numbers guard does fire on the same paragraphs without support (the check has teeth)', () => {
    const marked = paragraphs.filter((paragraph) => {
      const record = turnRecord({ question: 'สรุป', dateLine: '', toolCalls: [], finalText: paragraph });
      return runAnswerGuards(record, { secrets: [] }).events.some((event) => event.guard === 'numbers');
    });
    expect(marked.length).toBeGreaterThan(100);
  });
});
