import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { argumentsKey } from '../../../agent/guards/repeat-call.js';
import { runToolCall, type ToolRunOutcome } from '../../../agent/tool-runner.js';
import { defineTool, type AnyTool } from '../../../agent/tools/tool.js';
import type { Language, ToolCallRecord } from '../../../src/shared/types.js';
import { noModel } from '../../fakes/search/scripted-completer.js';
import { testToolContext } from '../../fakes/search/tool-context.js';

// The repeat-call guard counts every call by tool name and canonical arguments, whatever became of it: valid,
// rejected (not JSON, or not what zod accepts), a tool never offered, or failed when it ran. Each sequence is run
// through runToolCall with the tool log growing as tool-step.ts grows it.

let executed: string[] = [];
const lookup = defineTool({
  name: 'lookup',
  description: 'Look up a fact.',
  input: z.object({ query: z.string().min(1) }),
  execute: async ({ query }) => {
    executed.push(query);
    return { ok: true, content: `found ${query}` };
  },
});
const flaky = defineTool({
  name: 'fetch_rates',
  description: 'Exchange rates of one day.',
  input: z.object({ day: z.string().min(1) }),
  execute: async ({ day }) => {
    executed.push(day);
    return { ok: false, content: `rates server returned 503 for ${day}` };
  },
});
const tools = new Map<string, AnyTool>([lookup, flaky].map((tool) => [tool.name, tool]));

type Call = [name: string, argumentsText: string];

async function runAll(calls: readonly Call[], language: Language = 'th'): Promise<{ outcomes: ToolRunOutcome[]; log: ToolCallRecord[] }> {
  executed = [];
  const context = testToolContext(noModel().complete, { language });
  const log: ToolCallRecord[] = [];
  const outcomes: ToolRunOutcome[] = [];
  for (const [index, [name, argumentsText]] of calls.entries()) {
    const outcome = await runToolCall({ id: `call_${index}`, name, argumentsText }, tools, log, context);
    log.push(outcome.record);
    outcomes.push(outcome);
  }
  return { outcomes, log };
}

const thrice = (call: Call): Call[] => [call, call, call];

describe('counting every call', () => {
  const table: [string, Call[], ToolRunOutcome['verdict'][]][] = [
    ['valid', thrice(['lookup', '{"query":"เวลาเปิด"}']), ['ran', 'repeated', 'blocked']],
    ['rejected by zod', thrice(['lookup', '{}']), ['rejected', 'repeated', 'blocked']],
    ['not JSON', thrice(['lookup', 'query = เวลาเปิด']), ['rejected', 'repeated', 'blocked']],
    ['an unknown tool', thrice(['search_internet', '{"q":"x"}']), ['rejected', 'repeated', 'blocked']],
    ['failed when it ran', thrice(['fetch_rates', '{"day":"วันนี้"}']), ['ran', 'repeated', 'blocked']],
    [
      'the same call differently spaced',
      [
        ['lookup', '{}'],
        ['lookup', '{ }'],
        ['lookup', ' {\n} '],
      ],
      ['rejected', 'repeated', 'blocked'],
    ],
    [
      'the same rejected call in another key order',
      [
        ['lookup', '{"a":1,"b":2}'],
        ['lookup', '{"b":2,"a":1}'],
        ['lookup', '{ "a": 1, "b": 2 }'],
      ],
      ['rejected', 'repeated', 'blocked'],
    ],
    [
      'the same raw text differently padded',
      [
        ['lookup', 'oops'],
        ['lookup', '  oops\n'],
        ['lookup', 'oops '],
      ],
      ['rejected', 'repeated', 'blocked'],
    ],
    [
      'two failing calls alternating',
      [
        ['lookup', '{}'],
        ['search_internet', '{}'],
        ['lookup', '{}'],
        ['search_internet', '{}'],
        ['lookup', '{}'],
      ],
      ['rejected', 'rejected', 'repeated', 'repeated', 'blocked'],
    ],
    [
      'two valid calls alternating',
      [
        ['lookup', '{"query":"a"}'],
        ['lookup', '{"query":"b"}'],
        ['lookup', '{"query":"a"}'],
        ['lookup', '{"query":"b"}'],
        ['lookup', '{"query":"a"}'],
      ],
      ['ran', 'ran', 'repeated', 'repeated', 'blocked'],
    ],
    [
      'different rejected arguments',
      [
        ['lookup', '{}'],
        ['lookup', '{"query":""}'],
        ['lookup', '{"q":"x"}'],
      ],
      ['rejected', 'rejected', 'rejected'],
    ],
    [
      'the same broken arguments to different tools',
      [
        ['lookup', '{}'],
        ['fetch_rates', '{}'],
        ['search_internet', '{}'],
      ],
      ['rejected', 'rejected', 'rejected'],
    ],
    [
      'raw text that differs inside',
      [
        ['lookup', 'oops'],
        ['lookup', 'oops!'],
        ['lookup', 'o ops'],
      ],
      ['rejected', 'rejected', 'rejected'],
    ],
  ];
  it.each(table)('%s', async (_name, calls, verdicts) => {
    const { outcomes } = await runAll(calls);
    expect(outcomes.map((outcome) => outcome.verdict)).toEqual(verdicts);
    const events = outcomes.flatMap((outcome) => (outcome.event ? [outcome.event] : []));
    const expected = verdicts
      .filter((verdict) => verdict === 'repeated' || verdict === 'blocked')
      .map((verdict) => (verdict === 'repeated' ? 'warn' : 'block'));
    expect(events.map((event) => [event.guard, event.action])).toEqual(expected.map((action) => ['repeat-call', action]));
  });

  it('runs a failing tool once and never again in the turn', async () => {
    await runAll([...thrice(['fetch_rates', '{"day":"วันนี้"}']), ['fetch_rates', '{"day":"วันนี้"}']]);
    expect(executed).toEqual(['วันนี้']);
  });
});

describe('the warning on the 2nd identical failed call says why the first one failed', () => {
  const secondResult = async (call: Call, language: Language = 'th') => (await runAll([call, call], language)).outcomes[1]?.record;

  it('zod rejected it: the issue path and message', async () => {
    const record = await secondResult(['lookup', '{}']);
    expect(record?.ok).toBe(false);
    expect(record?.result).toMatch(/^⚠️ การเรียก lookup ด้วยอาร์กิวเมนต์เดิมเพิ่งล้มเหลว/);
    expect(record?.result).toContain('อาร์กิวเมนต์ของ lookup ไม่ถูกต้อง: query:');
    expect(record?.result).toContain('อย่าเรียกแบบเดิมอีก');
  });

  it('not JSON: the parse error', async () => {
    const record = await secondResult(['lookup', 'query = เวลาเปิด']);
    expect(record?.result).toContain('not valid JSON');
  });

  it('the tool does not exist: which tools do', async () => {
    const record = await secondResult(['search_internet', '{"q":"x"}']);
    expect(record?.result).toContain('ไม่มีเครื่องมือชื่อ "search_internet" เครื่องมือที่ใช้ได้: lookup, fetch_rates');
  });

  it('it failed when it ran: the earlier result', async () => {
    const record = await secondResult(['fetch_rates', '{"day":"วันนี้"}']);
    expect(record?.result).toContain('rates server returned 503 for วันนี้');
    expect(record?.result).not.toContain('ด้านล่างคือผลลัพธ์เดิม');
  });

  it('in English when the turn is in English', async () => {
    const record = await secondResult(['search_internet', '{}'], 'en');
    expect(record?.result).toMatch(/^⚠️ This call of search_internet with the same arguments just failed/);
    expect(record?.result).toContain('There is no tool named "search_internet". Available tools: lookup, fetch_rates');
    expect(record?.result).toContain('Do not repeat it');
  });

  it('a valid call that succeeded keeps the earlier warning and result', async () => {
    const record = await secondResult(['lookup', '{"query":"เวลาเปิด"}']);
    expect(record?.ok).toBe(true);
    expect(record?.result).toMatch(/^⚠️ คุณเรียกเครื่องมือนี้ด้วยอาร์กิวเมนต์เดิมไปแล้ว/);
    expect(record?.result.endsWith('found เวลาเปิด')).toBe(true);
  });

  it('keeps a long failure short', async () => {
    const long = `{"day":"${'ว'.repeat(2000)}"}`;
    const record = await secondResult(['fetch_rates', long]);
    expect(record?.result.length).toBeLessThan(700);
    expect(record?.result).toContain('…');
  });
});

describe('argumentsKey', () => {
  it('is canonical JSON when the text parses, the trimmed text when it does not', () => {
    expect(argumentsKey(undefined, '{ }')).toBe(argumentsKey({}, '{}'));
    expect(argumentsKey(undefined, '{"b":1,"a":2}')).toBe(argumentsKey({ a: 2, b: 1 }, ''));
    expect(argumentsKey(undefined, ' oops \n')).toBe(argumentsKey(undefined, 'oops'));
    // Raw text never meets a JSON string of the same letters.
    expect(argumentsKey(undefined, 'oops')).not.toBe(argumentsKey('oops', '"oops"'));
  });
});
