import { describe, expect, it } from 'vitest';
import { OneSlotCache, qwenTokenizer } from '../../bench/model-work-cache.js';
import { renderChatMl, templateJson } from '../../bench/model-work-chatml.js';

// The model-work bench's two pieces on a hand-made request pair: the Qwen3 ChatML rendering llama-server applies,
// and the one-slot prompt cache counted in real Qwen3 tokens.

const encode = qwenTokenizer();
const lookup = {
  type: 'function',
  function: {
    name: 'lookup',
    description: 'Look up.',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
};
const question = [
  { role: 'system', content: 'คุณคือแสง' },
  { role: 'user', content: 'ร้านเปิดกี่โมง' },
];
const toolChain = [
  { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"query":"เวลาเปิด"}' } }] },
  { role: 'tool', tool_call_id: 'call_1', content: 'เปิด 08:00–20:00' },
];
const first = { stream: true, tools: [lookup], messages: question };
const second = { stream: true, tools: [lookup], messages: [...question, ...toolChain] };
// The language retry's shape: the same turn asked again without tools.
const retry = { stream: true, messages: [...question, ...toolChain, { role: 'assistant', content: '营业时间' }, { role: 'user', content: 'ตอบเป็นภาษาไทย' }] };

const renderedFirst = [
  '<|im_start|>system\nคุณคือแสง\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n',
  'You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n',
  '{"type": "function", "function": {"name": "lookup", "description": "Look up.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}}}\n',
  '</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n',
  '<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n',
  '<|im_start|>user\nร้านเปิดกี่โมง<|im_end|>\n',
  '<|im_start|>assistant\n',
].join('');

describe('Qwen3 ChatML rendering', () => {
  it('puts the tools in the system turn as JSON lines and ends with the generation prompt', () => {
    expect(renderChatMl(first).text).toBe(renderedFirst);
  });

  it('renders a tool call as <tool_call> JSON (arguments as sent) and its result as <tool_response> in a user turn', () => {
    expect(renderChatMl(second).text).toBe(
      `${renderedFirst}<tool_call>\n{"name": "lookup", "arguments": {"query":"เวลาเปิด"}}\n</tool_call><|im_end|>\n` +
        '<|im_start|>user\n<tool_response>\nเปิด 08:00–20:00\n</tool_response><|im_end|>\n<|im_start|>assistant\n',
    );
  });

  it('without tools the system turn closes at once; a final assistant message gets the empty think block', () => {
    const text = renderChatMl({ messages: [...question, { role: 'assistant', content: 'แปดโมง' }] }).text;
    expect(text).toBe(
      '<|im_start|>system\nคุณคือแสง<|im_end|>\n<|im_start|>user\nร้านเปิดกี่โมง<|im_end|>\n' +
        '<|im_start|>assistant\n<think>\n\n</think>\n\nแปดโมง<|im_end|>\n<|im_start|>assistant\n',
    );
  });

  it('dumps JSON as the template engine does: ", " and ": " separators, Thai kept', () => {
    expect(templateJson({ a: [1, 'ไทย'], b: null, c: true })).toBe('{"a": [1, "ไทย"], "b": null, "c": true}');
  });
});

describe('one-slot prompt cache in Qwen3 tokens', () => {
  it('parses the special tokens as llama-server does', () => {
    expect(encode('<|im_start|>assistant\n')).toEqual([151644, 77091, 198]);
  });

  it('re-uses the whole previous prompt when the next one only appends, and only the system text when tools go', () => {
    const cache = new OneSlotCache();
    const request = (body: Record<string, unknown>) => {
      const rendered = renderChatMl(body);
      return { rendered, tokens: encode(rendered.text), hasTools: Array.isArray(body.tools) };
    };
    const [one, two, three] = [request(first), request(second), request(retry)];
    expect(two.tokens.slice(0, one.tokens.length)).toEqual(one.tokens);

    expect(cache.next(one)).toEqual({ total: one.tokens.length, reused: 0, processed: one.tokens.length, cause: 'cold cache' });
    expect(cache.next(two)).toEqual({
      total: two.tokens.length,
      reused: one.tokens.length,
      processed: two.tokens.length - one.tokens.length,
      cause: 'appended to the previous prompt',
    });
    const systemText = encode('<|im_start|>system\nคุณคือแสง').length;
    expect(cache.next(three)).toEqual({ total: three.tokens.length, reused: systemText, processed: three.tokens.length - systemText, cause: 'no tools array' });
  });
});
