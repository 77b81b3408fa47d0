import { describe, expect, it } from 'vitest';
import { findLeakedToolCalls } from '../../../agent/guards/leaked-markup.js';

const tools = ['web_search', 'query_knowledge', 'write_file', 'read_file'];

interface FiringCase {
  name: string;
  text: string;
  calls: { name: string; args: unknown }[];
  cleaned: string;
}

const firing: FiringCase[] = [
  {
    name: 'Hermes / Qwen <tool_call> JSON',
    text: '<tool_call>\n{"name": "web_search", "arguments": {"query": "ราคาทองวันนี้"}}\n</tool_call>',
    calls: [{ name: 'web_search', args: { query: 'ราคาทองวันนี้' } }],
    cleaned: '',
  },
  {
    name: 'call after prose (llama.cpp #15012)',
    text: 'ขอค้นหาข้อมูลก่อนนะครับ\n<tool_call>\n{"name": "web_search", "arguments": {"query": "python 3.13"}}\n</tool_call>',
    calls: [{ name: 'web_search', args: { query: 'python 3.13' } }],
    cleaned: 'ขอค้นหาข้อมูลก่อนนะครับ',
  },
  {
    name: 'two calls, the second left in content (llama.cpp #14101)',
    text: '<tool_call>{"name":"web_search","arguments":{"query":"a"}}</tool_call>\n<tool_call>{"name":"query_knowledge","arguments":{"action":"list"}}</tool_call>',
    calls: [
      { name: 'web_search', args: { query: 'a' } },
      { name: 'query_knowledge', args: { action: 'list' } },
    ],
    cleaned: '',
  },
  {
    name: 'arguments as a JSON string',
    text: '<tool_call>{"name": "web_search", "arguments": "{\\"query\\": \\"x\\"}"}</tool_call>',
    calls: [{ name: 'web_search', args: { query: 'x' } }],
    cleaned: '',
  },
  {
    name: 'Qwen3-Coder XML',
    text: '<tool_call>\n<function=write_file>\n<parameter=name>\nnotes.md\n</parameter>\n<parameter=content>\n# สรุป\nราคา 100 บาท\n</parameter>\n</function>\n</tool_call>',
    calls: [{ name: 'write_file', args: { name: 'notes.md', content: '# สรุป\nราคา 100 บาท' } }],
    cleaned: '',
  },
  {
    name: 'Qwen3-Coder XML with missing </parameter> and a number value',
    text: '<tool_call><function=query_knowledge><parameter=action>query<parameter=query_text>วันลา<parameter=top_k>3</function></tool_call>',
    calls: [{ name: 'query_knowledge', args: { action: 'query', query_text: 'วันลา', top_k: 3 } }],
    cleaned: '',
  },
  {
    name: '<function=name>{json}</function> without tool_call',
    text: 'Let me check.\n<function=web_search>{"query": "weather Bangkok"}</function>',
    calls: [{ name: 'web_search', args: { query: 'weather Bangkok' } }],
    cleaned: 'Let me check.',
  },
  {
    name: 'Mistral [TOOL_CALLS] array',
    text: '[TOOL_CALLS] [{"name": "web_search", "arguments": {"query": "SET index"}}]',
    calls: [{ name: 'web_search', args: { query: 'SET index' } }],
    cleaned: '',
  },
  {
    name: 'Mistral v11 [TOOL_CALLS]name[ARGS]{…}',
    text: '[TOOL_CALLS]web_search[ARGS]{"query": "ข่าววันนี้"}',
    calls: [{ name: 'web_search', args: { query: 'ข่าววันนี้' } }],
    cleaned: '',
  },
  {
    name: 'Llama <|python_tag|> JSON with parameters',
    text: '<|python_tag|>{"name": "web_search", "parameters": {"query": "bitcoin"}}<|eom_id|>',
    calls: [{ name: 'web_search', args: { query: 'bitcoin' } }],
    cleaned: '',
  },
  {
    name: 'bare leading JSON call (openclaw #8933)',
    text: '{"name": "web_search", "arguments": {"query": "ราคาน้ำมัน"}}',
    calls: [{ name: 'web_search', args: { query: 'ราคาน้ำมัน' } }],
    cleaned: '',
  },
  {
    name: 'pretty-printed bare JSON call after prose',
    text: 'ค้นหาให้นะครับ\n{\n  "name": "web_search",\n  "arguments": {"query": "x"}\n}',
    calls: [{ name: 'web_search', args: { query: 'x' } }],
    cleaned: 'ค้นหาให้นะครับ',
  },
  {
    name: 'Anthropic-style function_calls',
    text: '<function_calls>\n<invoke name="read_file">\n<parameter name="name">notes.md</parameter>\n</invoke>\n</function_calls>',
    calls: [{ name: 'read_file', args: { name: 'notes.md' } }],
    cleaned: '',
  },
  {
    name: 'GLM arg_key / arg_value',
    text: '<tool_call>web_search\n<arg_key>query</arg_key>\n<arg_value>ราคาทอง</arg_value>\n</tool_call>',
    calls: [{ name: 'web_search', args: { query: 'ราคาทอง' } }],
    cleaned: '',
  },
  {
    name: 'unterminated opener cut mid-call',
    text: 'กำลังค้นหา <tool_call>\n{"name": "web_search", "arguments": {"query": "ราคา',
    calls: [],
    cleaned: 'กำลังค้นหา',
  },
  {
    name: 'an unknown tool is cut but not returned',
    text: '<tool_call>{"name": "delete_everything", "arguments": {}}</tool_call>คำตอบคือ 42',
    calls: [],
    cleaned: 'คำตอบคือ 42',
  },
  {
    name: 'orphaned closers (QwenLM #10700)',
    text: 'ราคาทองวันนี้ 41,000 บาท\n</parameter>\n</function>\n</tool_call>',
    calls: [],
    cleaned: 'ราคาทองวันนี้ 41,000 บาท',
  },
  {
    name: 'runs into the next chat turn',
    text: 'สวัสดีครับ<|im_end|>\n<|im_start|>user\nแล้วพรุ่งนี้ล่ะ',
    calls: [],
    cleaned: 'สวัสดีครับ',
  },
  {
    name: 'stray assistant header at the start',
    text: '<|im_start|>assistant\nกรุงเทพฯ อากาศร้อน',
    calls: [],
    cleaned: 'กรุงเทพฯ อากาศร้อน',
  },
  {
    name: 'Gemma tool-call tokens',
    text: 'ok <|tool_call>call:web_search{query:<|"|>x<|"|>}<tool_call|> done',
    calls: [],
    cleaned: 'ok  done',
  },
  {
    name: 'OpenAI-shaped object inside tool_call',
    text: '<tool_call>{"type": "function", "function": {"name": "web_search", "arguments": {"query": "q"}}}</tool_call>',
    calls: [{ name: 'web_search', args: { query: 'q' } }],
    cleaned: '',
  },
];

describe('findLeakedToolCalls: must fire', () => {
  it.each(firing)('$name', ({ text, calls, cleaned }) => {
    const result = findLeakedToolCalls(text, tools);
    expect(result.found).toBe(true);
    expect(result.calls.map((call) => ({ name: call.name, args: JSON.parse(call.argumentsText) as unknown }))).toEqual(calls);
    expect(result.cleanedText).toBe(cleaned);
  });
});

describe('findLeakedToolCalls: must not fire', () => {
  const prose = [
    ['prose mentioning tool_call', 'Qwen wraps each call in a tool_call block, and vLLM parses it.'],
    ['prose mentioning the <tool_call> tag', 'Hermes models use the <tool_call> tag, closed by </tool_call> after the JSON.'],
    ['normal JSON status object', '{"status": "ok", "count": 3}'],
    ['JSON with a name but no arguments', '{"name": "สมชาย", "age": 30}'],
    ['JSON with extra keys is data, not a call', '{"name": "web_search", "arguments": {}, "description": "searches the web"}'],
    ['markup inside a fenced code block', 'ตัวอย่าง:\n```xml\n<tool_call>\n{"name": "web_search", "arguments": {"query": "x"}}\n</tool_call>\n```'],
    ['markup inside inline code', 'ใช้แท็ก `<tool_call>{"name":"web_search"}` ในพรอมต์'],
    ['HTML in an answer', 'ใช้ <b>ตัวหนา</b> และ <a href="https://example.com">ลิงก์</a>'],
    ['Thai answer', 'ราคาทองคำแท่งวันนี้ขายออกบาทละ 41,000 บาท'],
  ];
  it.each(prose)('%s', (_name, text) => {
    const result = findLeakedToolCalls(text, tools);
    expect(result).toEqual({ calls: [], cleanedText: text, found: false });
  });
});

describe('findLeakedToolCalls: scale', () => {
  it('stays linear on many unterminated openers', () => {
    const text = '<tool_call>{"name": "web_search", "arguments": {"query": "'.repeat(2_000);
    const result = findLeakedToolCalls(text, tools);
    expect(result.found).toBe(true);
    expect(result.cleanedText).toBe('');
  });
});
