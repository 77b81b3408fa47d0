import { describe, expect, it } from 'vitest';
import { findLeakedToolCalls } from '../../../agent/guards/leaked-markup.js';
import { createStreamMonitor, type StreamVerdict } from '../../../agent/guards/stream-monitor.js';

/** Streams `text` in deltas of `size` characters; returns the first abort and how much had been sent. */
function stream(text: string, size = 3, userAskedToRepeat = false): { verdict: StreamVerdict; sent: number } {
  const monitor = createStreamMonitor({ userAskedToRepeat });
  for (let sent = Math.min(size, text.length); ; sent = Math.min(sent + size, text.length)) {
    const verdict = monitor.inspect(text.slice(0, sent));
    if (verdict.action === 'abort' || sent === text.length) return { verdict, sent };
  }
}

describe('stream monitor: degenerate repetition', () => {
  const firing: [string, string][] = [
    ['cycling glob list', 'ไฟล์ที่รองรับได้แก่ ' + '"*.gz" "*.bz2" "*.xz" '.repeat(8)],
    ['a Thai sentence looping', 'ขออภัยในความไม่สะดวก '.repeat(10)],
    ['an English sentence looping', 'Let me search for that information. '.repeat(6)],
    ['the same bullet line over and over', 'ขั้นตอน:\n' + '- เปิดเมนูตั้งค่าแล้วกดบันทึก\n'.repeat(6)],
    ['a long paragraph looping', `สรุป: ${'ราคาทองคำแท่งวันนี้ขายออกบาทละสี่หมื่นหนึ่งพันบาทตามประกาศของสมาคมค้าทองคำ '.repeat(5)}`],
  ];
  it.each(firing)('fires: %s', (_name, text) => {
    const { verdict, sent } = stream(text);
    expect(verdict).toMatchObject({ action: 'abort', kind: 'repetition', event: { guard: 'repetition', action: 'block' } });
    expect(sent).toBeLessThan(text.length); // cut early, not at the end
  });

  const quiet: [string, string][] = [
    ['Thai laughter', 'ตลกมาก 5555555555555555555555 จริงๆ'],
    ['a stretched word', 'อร่อยมากกกกกกกกกกกกกกกกกก'],
    ['ฮ่าๆ and ฮ่าฮ่า laughter', 'ฮ่าๆๆๆๆๆๆ ฮ่าฮ่าฮ่าฮ่าฮ่าฮ่าฮ่า'],
    ['emoji rows', 'เยี่ยม 😂😂😂😂😂😂😂😂😂😂 👍🏻👍🏻👍🏻👍🏻👍🏻👍🏻'],
    ['a Markdown table with equal cells', '| สินค้า | มี | มี | มี | มี |\n|---|---|---|---|---|\n| ก | ใช่ | ใช่ | ใช่ | ใช่ |\n| ข | ใช่ | ใช่ | ใช่ | ใช่ |'],
    ['a numbered list of equal items', '1. ข้อดี\n2. ข้อดี\n3. ข้อดี\n4. ข้อดี\n5. ข้อดี\n6. ข้อดี'],
    ['separators', 'หัวข้อ\n----------------------------\n* * * * * * * *\n============'],
    ['repeated lines in a code block', 'โค้ด:\n```python\nprint("hi")\nprint("hi")\nprint("hi")\nprint("hi")\nprint("hi")\n```\nจบ'],
    ['three copies only', 'ตกลงครับ ตกลงครับ ตกลงครับ แล้วเจอกัน'],
    ['big numbers', 'มูลค่า 1,000,000,000,000 บาท และ 0.00 0.00 0.00 0.00 0.00'],
    ['ordinary prose', 'กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย มีแม่น้ำเจ้าพระยาไหลผ่าน และมีประชากรหนาแน่นที่สุดในประเทศ'],
  ];
  it.each(quiet)('does not fire: %s', (_name, text) => {
    expect(stream(text).verdict).toEqual({ action: 'continue' });
  });

  it('does not fire when the user asked for repetition', () => {
    expect(stream('สวัสดีครับ '.repeat(12), 3, true).verdict).toEqual({ action: 'continue' });
    expect(stream('สวัสดีครับ '.repeat(12), 3, false).verdict.action).toBe('abort');
  });

  it('gives the same verdict whatever the delta size', () => {
    const text = 'คำตอบ: ' + 'ตรวจสอบอีกครั้ง '.repeat(6);
    for (const size of [1, 2, 7, 64, text.length]) expect(stream(text, size).verdict.action).toBe('abort');
  });
});

describe('stream monitor: leaked tool-call markup', () => {
  it('collects a leaked call until its JSON closes, then aborts so that it can be recovered', () => {
    const text = 'ขอค้นหาก่อนนะครับ\n<tool_call>\n{"name": "web_search", "arguments": {"query": "ราคาทองวันนี้"}}\n</tool_call>\nแล้วก็ต่ออีกยาว';
    const { verdict, sent } = stream(text, 4);
    expect(verdict).toMatchObject({ action: 'abort', kind: 'leaked-markup' });
    expect(sent).toBeLessThan(text.indexOf('แล้วก็'));
    const recovered = findLeakedToolCalls(text.slice(0, sent), ['web_search']);
    expect(recovered.calls).toEqual([{ name: 'web_search', argumentsText: '{"query":"ราคาทองวันนี้"}' }]);
    expect(recovered.cleanedText).toBe('ขอค้นหาก่อนนะครับ');
  });

  it('aborts at once on chat-template tokens', () => {
    const text = 'สวัสดีครับ<|im_end|>\n<|im_start|>user\nคำถามใหม่ที่โมเดลแต่งขึ้นเอง';
    const { verdict, sent } = stream(text, 4);
    expect(verdict.action).toBe('abort');
    expect(sent).toBeLessThanOrEqual(text.indexOf('<|im_end|>') + '<|im_end|>'.length + 4);
  });

  it('aborts on a bare JSON call and on Qwen3-Coder XML once the function closes', () => {
    expect(stream('{"name": "web_search", "arguments": {"query": "x"}}', 5).verdict.action).toBe('abort');
    const xml = '<tool_call>\n<function=web_search>\n<parameter=query>\nทอง\n</parameter>\n</function>\n</tool_call>';
    expect(stream(xml, 5).verdict.action).toBe('abort');
  });

  it('cuts an unfinished call once it grows past the collection limit', () => {
    const text = `<tool_call>{"name": "write_file", "arguments": {"content": "${'ก'.repeat(20_000)}`;
    const { verdict, sent } = stream(text, 500);
    expect(verdict.action).toBe('abort');
    expect(sent).toBeLessThan(text.length);
  });

  const quiet: [string, string][] = [
    ['prose about the <tool_call> tag', 'โมเดลตระกูล Hermes ใช้แท็ก <tool_call> ครอบ JSON และปิดด้วยแท็กปิด เพื่อให้เซิร์ฟเวอร์แยกออก'],
    ['markup inside a fenced code block', 'ตัวอย่าง:\n```\n<tool_call>\n{"name": "web_search", "arguments": {"query": "x"}}\n</tool_call>\n```\nจบ'],
    ['a JSON data object at the start of a line', 'ข้อมูล:\n{"name": "สมชาย", "age": 30, "city": "เชียงใหม่"}\nจบ'],
    ['HTML tags', 'ใช้ <b>ตัวหนา</b> หรือ <function>ไม่ใช่แท็กจริง</function>'],
  ];
  it.each(quiet)('does not fire: %s', (_name, text) => {
    expect(stream(text, 3).verdict).toEqual({ action: 'continue' });
  });
});
