import { describe, expect, it } from 'vitest';
import { parseVerdicts, semanticCheck } from '../../../../agent/tools/web-search/semantic-check.js';
import { silentLogger } from '../../../../src/shared/log.js';
import { scriptedCompleter } from '../../../fakes/search/scripted-completer.js';

describe('parseVerdicts (strict; anything else fails closed)', () => {
  it.each([
    ['1: YES\n2: NO\n3: YES', 3, [true, false, true]],
    ['1: yes\n2: no', 2, [true, false]],
    ['  1. YES  \n\n2) NO\n', 2, [true, false]],
    ['2: NO\n1: YES', 2, [true, false]],
    ['<think>result 2 is stale</think>\n1: YES\n2: NO', 2, [true, false]],
    // The template opened <think> in the prompt: only the closer reaches the answer.
    ['result 2 is stale</think>\n1: YES\n2: NO', 2, [true, false]],
  ])('%j → %j', (text, count, expected) => {
    expect(parseVerdicts(text, count)).toEqual(expected);
  });

  it.each([
    ['1: YES', 2],
    ['1: YES\n2: NO\n3: YES', 2],
    ['Here are my answers:\n1: YES\n2: NO', 2],
    ['1: YES\n1: NO', 2],
    ['1: YES\n3: NO', 2],
    ['0: YES\n1: NO', 2],
    ['1: **YES**\n2: NO', 2],
    ['1: YES, relevant\n2: NO', 2],
    ['1: ใช่\n2: ไม่ใช่', 2],
    ['YES\nNO', 2],
    ['<think>still thinking about 1: YES\n2: NO', 2],
    ['', 1],
    [`${'1: YES\n'.repeat(1000)}`, 1],
  ])('%j for %i items → null', (text, count) => {
    expect(parseVerdicts(text, count)).toBeNull();
  });
});

describe('semanticCheck', () => {
  const items = [
    { title: 'ราคาทองคำวันนี้', snippet: 'ขายออก 47,150 บาท' },
    { title: 'งูหลาม Python', snippet: 'งูขนาดใหญ่' },
  ];
  const services = (complete: ReturnType<typeof scriptedCompleter>) => ({
    complete: complete.complete,
    signal: new AbortController().signal,
    log: silentLogger(),
  });

  it('sends titles and snippets (no URLs) in one call and keeps the YES items', async () => {
    const model = scriptedCompleter([
      {
        name: 'relevance',
        expect: (request) => {
          const prompt = request.messages[0]?.content ?? '';
          return prompt.includes('1. ราคาทองคำวันนี้ — ขายออก 47,150 บาท') && prompt.includes('2. งูหลาม Python') && !prompt.includes('http');
        },
        answer: '1: YES\n2: NO',
      },
    ]);
    const verdict = await semanticCheck('ราคาทองคำ', '2026-03-05', items, services(model));
    expect(verdict).toEqual({ ok: true, keep: [true, false] });
    model.verify();
  });

  it('fails closed on an unparsable answer and on a failed call', async () => {
    const model = scriptedCompleter([
      { name: 'chatty', answer: 'Sure! Result 1 is relevant.' },
      { name: 'error', answer: new Error('model server down') },
    ]);
    expect(await semanticCheck('q', 'd', items, services(model))).toEqual({ ok: false, reason: 'unparsable' });
    expect(await semanticCheck('q', 'd', items, services(model))).toEqual({ ok: false, reason: 'call-failed' });
    model.verify();
  });

  it('makes no call for an empty list', async () => {
    const model = scriptedCompleter([]);
    expect(await semanticCheck('q', 'd', [], services(model))).toEqual({ ok: true, keep: [] });
    model.verify();
  });
});
