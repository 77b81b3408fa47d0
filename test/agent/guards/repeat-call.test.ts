import { describe, expect, it } from 'vitest';
import { canonicalArguments, checkRepeatCall, repeatWarning } from '../../../agent/guards/repeat-call.js';
import type { ToolCallRecord } from '../../../src/shared/types.js';

function call(name: string, args: unknown, id = name): ToolCallRecord {
  return { id, name, args, argumentsText: JSON.stringify(args), result: `result of ${id}`, ok: true, ms: 3, citations: [], files: [] };
}

describe('canonicalArguments', () => {
  const same: [string, unknown, unknown][] = [
    ['key order', { query: 'ราคาทอง', top_k: 5 }, { top_k: 5, query: 'ราคาทอง' }],
    ['whitespace around strings', { query: '  ราคาทอง วันนี้ ' }, { query: 'ราคาทอง วันนี้' }],
    ['NFC vs decomposed', { query: 'caf\u00e9' }, { query: 'cafe\u0301' }],
    ['numeric string vs number', { top_k: '5' }, { top_k: 5 }],
    ['Thai digits', { year: '๒๕๖๗' }, { year: 2567 }],
    ['nested objects', { filter: { b: 1, a: [1, ' x '] } }, { filter: { a: [1, 'x'], b: 1 } }],
    ['undefined members', { query: 'x', page: undefined }, { query: 'x' }],
    ['negative zero', { offset: -0 }, { offset: 0 }],
  ];
  it.each(same)('treats %s as identical', (_name, left, right) => {
    expect(canonicalArguments(left)).toBe(canonicalArguments(right));
  });

  const different: [string, unknown, unknown][] = [
    ['another query', { query: 'ราคาทอง' }, { query: 'ราคาน้ำมัน' }],
    ['array order', { ids: [1, 2] }, { ids: [2, 1] }],
    ['case', { query: 'Python' }, { query: 'python' }],
    ['another number', { top_k: 5 }, { top_k: 6 }],
  ];
  it.each(different)('keeps %s apart', (_name, left, right) => {
    expect(canonicalArguments(left)).not.toBe(canonicalArguments(right));
  });
});

describe('checkRepeatCall', () => {
  it('passes a first call and calls of other tools or other arguments', () => {
    const log = [call('web_search', { query: 'ราคาทอง' }), call('query_knowledge', { action: 'query', query_text: 'ลา' })];
    expect(checkRepeatCall([], 'web_search', { query: 'ราคาทอง' }).action).toBe('pass');
    expect(checkRepeatCall(log, 'web_search', { query: 'ราคาทองวันนี้' }).action).toBe('pass');
    expect(checkRepeatCall(log, 'read_file', { query: 'ราคาทอง' }).action).toBe('pass');
  });

  it('warns on the 2nd identical call and hands back the earlier record', () => {
    const first = call('web_search', { query: 'ราคาทอง', top_k: 5 }, 'call_1');
    const verdict = checkRepeatCall([first], 'web_search', { top_k: '5', query: ' ราคาทอง ' });
    expect(verdict.action).toBe('warn');
    if (verdict.action !== 'warn') return;
    expect(verdict.earlier.id).toBe('call_1');
    expect(verdict.event).toMatchObject({ guard: 'repeat-call', action: 'warn' });
  });

  it('blocks the 3rd identical call, also a failing one', () => {
    const failing = { ...call('read_file', { name: 'a.txt' }), ok: false };
    const verdict = checkRepeatCall([failing, { ...failing, id: 'again' }], 'read_file', { name: 'a.txt' });
    expect(verdict.action).toBe('block');
    if (verdict.action === 'block') expect(verdict.event.reason).toMatch(/3rd identical call of read_file/);
  });

  it('reads arguments from argumentsText when args did not parse into the record', () => {
    const record = { ...call('web_search', undefined), argumentsText: '{"query":"x"}' };
    expect(checkRepeatCall([record], 'web_search', { query: 'x' }).action).toBe('warn');
  });

  it('has a warning in both languages', () => {
    expect(repeatWarning('th')).toMatch(/อย่าเรียกซ้ำ/);
    expect(repeatWarning('en')).toMatch(/Do not call it again/);
  });
});
