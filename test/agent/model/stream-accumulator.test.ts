import { describe, expect, it } from 'vitest';
import { parseToolArguments, StreamAccumulator } from '../../../agent/model/stream-accumulator.js';

// Chunk shapes copied from the servers' real streams (llama-server, Ollama, vLLM, LM Studio).

function feed(chunks: unknown[]): { accumulator: StreamAccumulator; visibleAfterEach: string[]; deltas: string[] } {
  const accumulator = new StreamAccumulator();
  const visibleAfterEach: string[] = [];
  const deltas: string[] = [];
  for (const chunk of chunks) {
    deltas.push(accumulator.push(chunk));
    visibleAfterEach.push(accumulator.visibleText);
  }
  return { accumulator, visibleAfterEach, deltas };
}

const chunk = (delta: Record<string, unknown>, finishReason: string | null = null, extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1_760_000_000,
  model: 'qwen3.5-2b',
  choices: [{ index: 0, delta, finish_reason: finishReason }],
  ...extra,
});

describe('StreamAccumulator', () => {
  it('assembles llama.cpp fragments (index on every fragment, id/type on the first, timings on the last chunk)', () => {
    const { accumulator } = feed([
      chunk({ role: 'assistant', content: null }),
      chunk({ tool_calls: [{ index: 0, id: 'Xk3bq9Zp1', type: 'function', function: { name: 'web_search', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"que' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ry":"ราคาทอง' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'วันนี้\\u0e01"}' } }] }),
      chunk({}, 'tool_calls', { timings: { cache_n: 120, prompt_n: 14, predicted_n: 18 } }),
    ]);
    const result = accumulator.finish();
    expect(result.toolCalls).toEqual([{ id: 'Xk3bq9Zp1', name: 'web_search', argumentsText: '{"query":"ราคาทองวันนี้\\u0e01"}' }]);
    expect(parseToolArguments(result.toolCalls[0]?.argumentsText ?? '')).toEqual({ ok: true, value: { query: 'ราคาทองวันนี้ก' } });
    expect(result.finishReason).toBe('tool_calls');
    expect(result.content).toBe('');
  });

  it('takes Ollama whole calls with `reasoning`, and a finish_reason on a separate empty chunk', () => {
    const ollama = (delta: Record<string, unknown>, finishReason: string | null = null) =>
      chunk({ role: 'assistant', ...delta }, finishReason, { system_fingerprint: 'fp_ollama' });
    const { accumulator, visibleAfterEach } = feed([
      ollama({ content: '', reasoning: 'The user wants ' }),
      ollama({ content: '', reasoning: 'the time.' }),
      ollama({
        content: '',
        tool_calls: [{ id: 'call_7u1x', index: 0, type: 'function', function: { name: 'get_time', arguments: '{"timezone":"Asia/Bangkok"}' } }],
      }),
      ollama({ content: '' }, 'stop'),
    ]);
    const result = accumulator.finish();
    expect(visibleAfterEach.every((text) => text === '')).toBe(true);
    expect(result.reasoning).toBe('The user wants the time.');
    expect(result.content).toBe('');
    expect(result.toolCalls).toEqual([{ id: 'call_7u1x', name: 'get_time', argumentsText: '{"timezone":"Asia/Bangkok"}' }]);
    expect(result.finishReason).toBe('stop');
  });

  it('keeps whole calls apart when `index` is missing (Ollama before #7881)', () => {
    const { accumulator } = feed([
      chunk({ tool_calls: [{ id: 'a1', type: 'function', function: { name: 'web_search', arguments: '{"query":"x"}' } }] }),
      chunk({ tool_calls: [{ id: 'b2', type: 'function', function: { name: 'query_knowledge', arguments: '{"action":"list"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(accumulator.finish().toolCalls).toEqual([
      { id: 'a1', name: 'web_search', argumentsText: '{"query":"x"}' },
      { id: 'b2', name: 'query_knowledge', argumentsText: '{"action":"list"}' },
    ]);
  });

  it('keeps whole calls apart with neither index nor id, and generates ids', () => {
    const { accumulator } = feed([
      chunk({ tool_calls: [{ function: { name: 'web_search', arguments: '{"query":"a"}' } }] }),
      chunk({ tool_calls: [{ function: { name: 'web_search', arguments: '{"query":"b"}' } }] }),
    ]);
    expect(accumulator.finish().toolCalls).toEqual([
      { id: 'call_1', name: 'web_search', argumentsText: '{"query":"a"}' },
      { id: 'call_2', name: 'web_search', argumentsText: '{"query":"b"}' },
    ]);
  });

  it('accepts a first fragment without id and type (the openai helper throws on it)', () => {
    const { accumulator } = feed([
      chunk({ tool_calls: [{ index: 0, function: { name: 'read_file', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"notes.md"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(accumulator.finish().toolCalls).toEqual([{ id: 'call_1', name: 'read_file', argumentsText: '{"path":"notes.md"}' }]);
  });

  it('splits two whole calls sent on index 0 with different ids (LiteLLM #33678)', () => {
    const { accumulator } = feed([
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'web_search', arguments: '{"query":"a"}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'call_b', type: 'function', function: { name: 'web_search', arguments: '{"query":"b"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(accumulator.finish().toolCalls.map((call) => call.argumentsText)).toEqual(['{"query":"a"}', '{"query":"b"}']);
  });

  it('splits fragmented calls on index 0 when a fragment brings a different id', () => {
    const { accumulator } = feed([
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'web_search', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"query":"a"}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'call_b', type: 'function', function: { name: 'web_search', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"query":"b"}' } }] }),
    ]);
    expect(accumulator.finish().toolCalls).toEqual([
      { id: 'call_a', name: 'web_search', argumentsText: '{"query":"a"}' },
      { id: 'call_b', name: 'web_search', argumentsText: '{"query":"b"}' },
    ]);
  });

  it('splits two whole calls on index 0 without ids once the first arguments parse', () => {
    const { accumulator } = feed([
      chunk({ tool_calls: [{ index: 0, function: { name: 'web_search', arguments: '{"query":"a"}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'web_search', arguments: '{"query":"b"}' } }] }),
    ]);
    expect(accumulator.finish().toolCalls).toHaveLength(2);
  });

  it('stays one call when fragments repeat the name and a fragment starts with "{" mid-arguments', () => {
    const { accumulator } = feed([
      chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'write_file', arguments: '{"meta":' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'write_file', arguments: '{"n":1}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'write_file', arguments: '}' } }] }),
      chunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'write_file', arguments: '' } }] }),
    ]);
    expect(accumulator.finish().toolCalls).toEqual([{ id: 'c1', name: 'write_file', argumentsText: '{"meta":{"n":1}}' }]);
  });

  it('follows a stream whose id comes only on the first chunk and index never (LiteLLM #11407)', () => {
    const { accumulator } = feed([
      chunk({ tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'web_search', arguments: '' } }] }),
      chunk({ tool_calls: [{ function: { arguments: '{"query":' } }] }),
      chunk({ tool_calls: [{ function: { arguments: '"ข่าว"}' } }] }),
    ]);
    expect(accumulator.finish().toolCalls).toEqual([{ id: 'toolu_1', name: 'web_search', argumentsText: '{"query":"ข่าว"}' }]);
  });

  it('accepts integer ids and object-typed arguments', () => {
    const { accumulator } = feed([
      chunk({ tool_calls: [{ index: 0, id: 0, type: 'function', function: { name: 'get_time', arguments: { timezone: 'Asia/Bangkok' } } }] }),
      chunk({ tool_calls: [{ index: 1, id: 1, type: 'function', function: { name: 'web_search', arguments: { query: 'ทอง' } } }] }),
    ]);
    expect(accumulator.finish().toolCalls).toEqual([
      { id: '0', name: 'get_time', argumentsText: '{"timezone":"Asia/Bangkok"}' },
      { id: '1', name: 'web_search', argumentsText: '{"query":"ทอง"}' },
    ]);
  });

  it('drops whitespace-only content before a call (vLLM PR #32538) but keeps it in a plain answer', () => {
    const withCall = feed([
      chunk({ reasoning_content: 'need search' }),
      chunk({ content: '\n\n' }),
      chunk({ tool_calls: [{ index: 0, id: 'x', type: 'function', function: { name: 'web_search', arguments: '{}' } }] }),
      chunk({ content: '' }, 'tool_calls'),
    ]).accumulator.finish();
    expect(withCall.content).toBe('');
    expect(withCall.toolCalls).toHaveLength(1);
    const plain = feed([chunk({ content: 'สวัสดี' }), chunk({ content: ' ' }), chunk({ content: 'ครับ' }), chunk({}, 'stop')]).accumulator.finish();
    expect(plain.content).toBe('สวัสดี ครับ');
  });

  it('treats finish_reason "tool", "tool_calls" and "stop" with calls alike (calls are kept, reason reported)', () => {
    for (const reason of ['tool', 'tool_calls', 'stop']) {
      const result = feed([
        chunk({ tool_calls: [{ index: 0, id: 'x', type: 'function', function: { name: 'get_time', arguments: '{}' } }] }, reason),
      ]).accumulator.finish();
      expect(result.toolCalls).toHaveLength(1);
      expect(result.finishReason).toBe(reason);
    }
  });

  it('keeps reasoning_content ∪ reasoning hidden, once when a server sends both', () => {
    const result = feed([
      chunk({ reasoning_content: 'คิดก่อน', reasoning: 'คิดก่อน' }),
      chunk({ reasoning_content: ' a', reasoning: ' b' }),
      chunk({ content: 'คำตอบ' }),
    ]).accumulator.finish();
    expect(result.reasoning).toBe('คิดก่อน a b');
    expect(result.content).toBe('คำตอบ');
  });

  it('moves <think> blocks split across chunks out of the visible text as they stream', () => {
    const { accumulator, visibleAfterEach, deltas } = feed([
      chunk({ content: '<thi' }),
      chunk({ content: 'nk>plan the ans' }),
      chunk({ content: 'wer</th' }),
      chunk({ content: 'ink>\n\nตอบ < 5 <' }),
      chunk({ content: 'b>' }),
    ]);
    expect(visibleAfterEach).toEqual(['', '', '', '\n\nตอบ < 5 ', '\n\nตอบ < 5 <b>']);
    expect(deltas.join('')).toBe('\n\nตอบ < 5 <b>');
    const result = accumulator.finish();
    expect(result.reasoning).toBe('plan the answer');
    expect(result.content).toBe('\n\nตอบ < 5 <b>');
  });

  it('hides the text before an orphan </think> (templates that open <think> in the prompt)', () => {
    const result = feed([chunk({ content: 'reasoning here</think>' }), chunk({ content: '\nคำตอบ' })]).accumulator.finish();
    expect(result.content).toBe('คำตอบ');
    expect(result.reasoning).toBe('reasoning here');
  });

  it('reports the visible delta and text after every chunk, ignoring other choices and non-chunks', () => {
    const { accumulator, deltas } = feed([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'สวัส' }),
      { choices: [{ index: 1, delta: { content: 'other choice' } }] },
      'not a chunk',
      { usage: { prompt_tokens: 3 } },
      chunk({ content: 'ดี' }),
    ]);
    expect(deltas).toEqual(['', 'สวัส', '', '', '', 'ดี']);
    expect(accumulator.visibleText).toBe('สวัสดี');
    expect(accumulator.chunkCount).toBe(4);
  });

  it('takes a whole message in a chunk (non-streamed completion fed through it)', () => {
    const result = feed([
      {
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: null, tool_calls: [{ id: 'q', type: 'function', function: { name: 'get_time', arguments: '{}' } }] },
            finish_reason: 'tool_calls',
          },
        ],
      },
    ]).accumulator.finish();
    expect(result.toolCalls).toEqual([{ id: 'q', name: 'get_time', argumentsText: '{}' }]);
  });

  it('does not reuse a server id when generating ids for calls without one', () => {
    const { accumulator } = feed([
      chunk({ tool_calls: [{ index: 0, function: { name: 'a', arguments: '{}' } }] }),
      chunk({ tool_calls: [{ index: 1, id: 'call_1', function: { name: 'b', arguments: '{}' } }] }),
    ]);
    expect(accumulator.finish().toolCalls.map((call) => call.id)).toEqual(['call_2', 'call_1']);
  });
});

describe('parseToolArguments', () => {
  const repaired: [string, string, unknown][] = [
    ['empty', '', {}],
    ['whitespace', '  \n', {}],
    ['plain object', '{"query":"ทอง"}', { query: 'ทอง' }],
    ['object encoded as a JSON string', '"{\\"query\\":\\"ทอง\\"}"', { query: 'ทอง' }],
    ['truncated inside a string', '{"query":"ราคาทอ', { query: 'ราคาทอ' }],
    ['truncated inside an array', '{"ids":[1,2', { ids: [1, 2] }],
    ['truncated after a comma', '{"a":1,', { a: 1 }],
    ['truncated after a colon', '{"a":', { a: null }],
    ['truncated after a key', '{"a":1,"b"', { a: 1, b: null }],
    ['truncated inside an escape', '{"q":"x\\', { q: 'x' }],
    ['truncated inside a unicode escape', '{"q":"x\\u0E2', { q: 'x' }],
    ['truncated literal', '{"a":tru', { a: null }],
    ['nested truncation', '{"a":{"b":[{"c":"d', { a: { b: [{ c: 'd' }] } }],
    ['one closing brace too many', '{"a":1}}', { a: 1 }],
    ['code fence', '```json\n{"a":1}\n```', { a: 1 }],
  ];
  it.each(repaired)('repairs: %s', (_name, text, value) => {
    expect(parseToolArguments(text)).toEqual({ ok: true, value });
  });

  const broken: [string, string][] = [
    ['prose', 'search for gold price'],
    ['two concatenated objects', '{"a":1}{"b":2}'],
    ['bad literal inside closed object', '{"a": nope}'],
    ['trailing prose after a value', '{"a":1} thanks'],
  ];
  it.each(broken)('refuses: %s', (_name, text) => {
    const parsed = parseToolArguments(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(/not valid JSON/);
  });

  it('keeps a string that only looks like JSON as the string', () => {
    expect(parseToolArguments('"{not json"')).toEqual({ ok: true, value: '{not json' });
  });
});
