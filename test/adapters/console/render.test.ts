import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderTerminalText } from '../../../adapters/console/render.js';
import { segmentsOf } from '../../../src/shared/segments.js';
import { terminalWidth } from '../../../adapters/console/terminal-width.js';
import { markdownDocument } from '../format/markdown-arbitrary.js';

// The console chat's renderer: each construct with colour on and off, Thai tables and lists, quotes that never
// look like the console prompt, and a long answer as the model writes it (with the source list the sources
// guard appends).

const bold = (text: string): string => `\x1b[1m${text}\x1b[22m`;
const italic = (text: string): string => `\x1b[3m${text}\x1b[23m`;
const cyan = (text: string): string => `\x1b[36m${text}\x1b[39m`;
const dim = (text: string): string => `\x1b[2m${text}\x1b[22m`;
const strike = (text: string): string => `\x1b[9m${text}\x1b[29m`;

function plain(markdown: string, width?: number): string {
  return renderTerminalText(markdown, { color: false, width });
}

function colored(markdown: string, width?: number): string {
  return renderTerminalText(markdown, { color: true, width });
}

const escape = '\x1b';

/** The text a terminal shows: every SGR sequence removed. */
function withoutStyles(text: string): string {
  return text.split(escape).reduce((shown, piece, index) => shown + (index === 0 ? piece : piece.replace(/^\[\d{1,3}m/, '')), '');
}

/** Control characters other than the newline (what would drive the terminal). */
function controlCharacters(text: string): string[] {
  return [...text].filter((character) => {
    const code = character.charCodeAt(0);
    return (code < 0x20 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f);
  });
}

/** The terminal column of every "│" in a line. */
function barColumns(line: string): number[] {
  const columns: number[] = [];
  for (let index = line.indexOf('│'); index !== -1; index = line.indexOf('│', index + 1)) columns.push(terminalWidth(line.slice(0, index)));
  return columns;
}

interface Example {
  name: string;
  markdown: string;
  plain: string;
  colored: string;
}

const examples: Example[] = [
  {
    name: 'bold, italic, strikethrough and code spans',
    markdown: 'ใช้ **ตัวหนา** _เอียง_ ~~ขีดฆ่า~~ และ `npm i`',
    plain: 'ใช้ ตัวหนา เอียง ขีดฆ่า และ npm i',
    colored: `ใช้ ${bold('ตัวหนา')} ${italic('เอียง')} ${strike('ขีดฆ่า')} และ ${cyan('npm i')}`,
  },
  {
    name: 'italic inside bold keeps the bold on after the italic ends',
    markdown: '**a *b* c**',
    plain: 'a b c',
    colored: `\x1b[1ma \x1b[3mb\x1b[23m c\x1b[22m`,
  },
  {
    name: 'headings as bold lines without #',
    markdown: '# สรุป\n\n### Deep heading',
    plain: 'สรุป\n\nDeep heading',
    colored: `${bold('สรุป')}\n\n${bold('Deep heading')}`,
  },
  {
    name: 'links as text (url), bare links and images once',
    markdown: 'ดู [เอกสาร](https://example.com/a_b) หรือ https://example.org และ ![รูป](https://example.com/p.png)',
    plain: 'ดู เอกสาร (https://example.com/a_b) หรือ https://example.org และ รูป (https://example.com/p.png)',
    colored: 'ดู เอกสาร (https://example.com/a_b) หรือ https://example.org และ รูป (https://example.com/p.png)',
  },
  {
    name: 'escaped markers shown unescaped',
    markdown: '2\\*3 = 6, a\\_b, \\# not a heading, \\*\\*not bold\\*\\*',
    plain: '2*3 = 6, a_b, # not a heading, **not bold**',
    colored: '2*3 = 6, a_b, # not a heading, **not bold**',
  },
  {
    name: 'nested lists with bullets, numbers and task boxes',
    markdown: '- ผลไม้\n  - มะม่วง\n    1. first\n- [x] done\n- [ ] todo',
    plain: '• ผลไม้\n  ◦ มะม่วง\n    1. first\n☑ done\n☐ todo',
    colored: '• ผลไม้\n  ◦ มะม่วง\n    1. first\n☑ done\n☐ todo',
  },
  {
    name: 'code blocks indented four spaces, no fences, dim with colour',
    markdown: '```ts\nif (a < b) {\n  go();\n}\n```',
    plain: '    if (a < b) {\n      go();\n    }',
    colored: `    ${dim('if (a < b) {')}\n    ${dim('  go();')}\n    ${dim('}')}`,
  },
  {
    name: 'quotes behind a bar, nested ones too, never "> "',
    markdown: '> คำพูด\n>\n> > ซ้อน',
    plain: '│ คำพูด\n│\n│ │ ซ้อน',
    colored: `${dim('│ ')}คำพูด\n${dim('│')}\n${dim('│ │ ')}ซ้อน`,
  },
  {
    name: 'horizontal rules as a line of ─',
    markdown: 'ก่อน\n\n---\n\nหลัง',
    plain: `ก่อน\n\n${'─'.repeat(40)}\n\nหลัง`,
    colored: `ก่อน\n\n${dim('─'.repeat(40))}\n\nหลัง`,
  },
  {
    // กำ is one grapheme but two columns: SARA AM (ำ) is a spacing vowel; ชื่ takes one (its marks take none).
    name: 'tables aligned by terminal columns, header bold and rule dim with colour',
    markdown: '| ชื่อ | จำนวน |\n|:--|--:|\n| น้ำ | 2 |\n| กำลังไฟ | 10 |',
    plain: 'ชื่อ     │ จำนวน\n────── │ ─────\nน้ำ     │     2\nกำลังไฟ │    10',
    colored: `${bold('ชื่อ     │ จำนวน')}\n${dim('────── │ ─────')}\nน้ำ     │     2\nกำลังไฟ │    10`,
  },
];

describe('renderTerminalText', () => {
  for (const example of examples) {
    it(`without colour: ${example.name}`, () => {
      expect(plain(example.markdown)).toBe(example.plain);
    });
    it(`with colour: ${example.name}`, () => {
      expect(colored(example.markdown)).toBe(example.colored);
    });
  }

  it('measures Thai table cells in terminal columns, so every separator lines up', () => {
    const markdown =
      '| จังหวัด | ประชากร (คน) | หมายเหตุ |\n|---|--:|:-:|\n| กรุงเทพมหานคร | 5,494,932 | เมืองหลวง |\n| น่าน | 478,264 | ที่นี่ |\n| ชลบุรี | 1,618,066 | ท่าเรือน้ำลึก |';
    const lines = plain(markdown).split('\n');
    expect(lines).toHaveLength(5);
    const columns = barColumns(lines[0] ?? '');
    expect(columns).toHaveLength(2);
    for (const line of lines) expect(barColumns(line)).toEqual(columns);
    expect(lines[2]).toBe('กรุงเทพมหานคร │    5,494,932 │ เมืองหลวง');
    // ท่าเรือน้ำลึก: nine columns, though its marks make it thirteen code points and its graphemes eight.
    expect(lines[4]).toBe('ชลบุรี         │    1,618,066 │ ท่าเรือน้ำลึก');
  });

  it('renders a Thai list with a table after it, with hanging indents for wrapped items', () => {
    const markdown = '1. เตรียมเอกสาร\n2. กรอกแบบฟอร์มคำขอให้ครบถ้วนทุกช่องแล้วยื่นที่สำนักงานเขต\n\n| ขั้นตอน | เวลา |\n|---|---|\n| ยื่นคำขอ | 1 วัน |';
    const lines = plain(markdown, 24).split('\n');
    expect(lines[0]).toBe('1. เตรียมเอกสาร');
    const wrappedItem = lines.slice(1, lines.indexOf(''));
    expect(wrappedItem.length).toBeGreaterThan(2);
    expect(wrappedItem[0]?.startsWith('2. กรอกแบบฟอร์ม')).toBe(true);
    for (const line of wrappedItem) expect(terminalWidth(line)).toBeLessThanOrEqual(24);
    for (const line of wrappedItem.slice(1)) expect(line.startsWith('   ') && !line.startsWith('    ')).toBe(true);
    expect(wrappedItem.map((line) => line.trim()).join('')).toBe('2. กรอกแบบฟอร์มคำขอให้ครบถ้วนทุกช่องแล้วยื่นที่สำนักงานเขต');
    expect(lines.slice(-3)).toEqual(['ขั้นตอน  │ เวลา', '────── │ ────', 'ยื่นคำขอ │ 1 วัน']);
  });

  it('right-aligns list numbers, so the text of item 9 and item 10 starts in one column', () => {
    const markdown = Array.from({ length: 10 }, (_, index) => `${index + 1}. ข้อ ${index + 1}`).join('\n');
    const lines = plain(markdown).split('\n');
    expect(lines[8]).toBe(' 9. ข้อ 9');
    expect(lines[9]).toBe('10. ข้อ 10');
  });

  it('never starts a line of a quote with the console prompt "> "', () => {
    const markdown = '> ตามที่ระบุไว้ในประกาศ\n> "ผู้ใช้ทุกคนต้องยืนยันตัวตน"\n\n> > - ข้อแรก\n> > - ข้อสอง';
    for (const output of [plain(markdown), withoutStyles(colored(markdown))]) {
      const lines = output.split('\n');
      expect(lines.filter((line) => line !== '').every((line) => line.startsWith('│'))).toBe(true);
      expect(output).not.toMatch(/^>/m);
    }
    expect(plain(markdown)).toBe('│ ตามที่ระบุไว้ในประกาศ\n│ "ผู้ใช้ทุกคนต้องยืนยันตัวตน"\n\n│ │ • ข้อแรก\n│ │ • ข้อสอง');
  });

  it('moves a literal ">" off the prompt column: an escaped \\>, a table cell, and never wraps a line to start with one', () => {
    expect(plain('\\> ไม่ใช่คำพูด')).toBe(' > ไม่ใช่คำพูด');
    expect(plain('| ค่า |\n|---|\n| > 5 |').split('\n').at(-1)).toBe(' > 5');
    // Cut at the last space that fits, the second line would start "> y": the cut moves back before "x".
    expect(plain('abcdefghijklm x > y และ a > b', 16).split('\n')).toEqual(['abcdefghijklm', 'x > y และ a > b']);
  });

  it('counts wide characters and emoji as two columns in a table', () => {
    const lines = plain('| item | note |\n|---|---|\n| 東京 | 👍🏽 ok |\n| abcd | x |').split('\n');
    const columns = barColumns(lines[0] ?? '');
    for (const line of lines) expect(barColumns(line)).toEqual(columns);
    expect(lines[2]).toBe('東京 │ 👍🏽 ok');
  });

  it('renders the source list the sources guard appends as a heading and numbered lines', () => {
    const markdown =
      'ราคาน้ำมันวันนี้ลดลง 50 สตางค์\n\n**แหล่งที่มา**\n1. [ราคาน้ำมัน ปตท.](https://www.pttor.com/th/oil_price)\n2. https://www.bangchak.co.th/th/oilprice\n3. คลังความรู้ › ประกาศราคา.pdf';
    expect(plain(markdown)).toBe(
      'ราคาน้ำมันวันนี้ลดลง 50 สตางค์\n\nแหล่งที่มา\n\n1. ราคาน้ำมัน ปตท. (https://www.pttor.com/th/oil_price)\n2. https://www.bangchak.co.th/th/oilprice\n3. คลังความรู้ › ประกาศราคา.pdf',
    );
    expect(colored(markdown)).toContain(`${bold('แหล่งที่มา')}\n\n1. ราคาน้ำมัน ปตท. (https://www.pttor.com/th/oil_price)`);
  });

  it('wraps at the width: after spaces and between Thai words, never inside a word or a URL', () => {
    const markdown = 'ประเทศไทยมีจังหวัดทั้งหมดเจ็ดสิบเจ็ดจังหวัด the quick brown fox jumps over https://example.com/a/very/long/path/that/does/not/fit';
    const lines = plain(markdown, 20).split('\n');
    expect(lines.length).toBeGreaterThan(4);
    for (const line of lines) {
      if (!line.includes('https://')) expect(terminalWidth(line)).toBeLessThanOrEqual(20);
      expect(line).toBe(line.trim());
    }
    expect(lines).toContain('https://example.com/a/very/long/path/that/does/not/fit');
    expect(lines.join('').replace(/ /g, '')).toBe(markdown.replace(/ /g, ''));
    const words = new Set([...new Intl.Segmenter('th', { granularity: 'word' }).segment(markdown)].map((segment) => segment.index));
    let offset = 0;
    for (const line of lines.slice(0, -1)) {
      offset = markdown.indexOf(line, offset) + line.length;
      const next = markdown.slice(offset).search(/\S/) + offset;
      expect(words.has(next), `cut before ${markdown.slice(next, next + 6)} is not a word boundary`).toBe(true);
    }
  });

  it('wraps a very long Thai paragraph (segmented in windows, so the work stays linear)', () => {
    const paragraph = 'วันนี้อากาศดีมากเราจะไปเที่ยวทะเลกันที่จังหวัดชลบุรี '.repeat(4000);
    const lines = plain(paragraph, 80).split('\n');
    expect(lines.length).toBeGreaterThan(1000);
    for (const line of lines) expect(terminalWidth(line)).toBeLessThanOrEqual(80);
    expect(lines.join('').replace(/ /g, '')).toBe(paragraph.replace(/ /g, ''));
  });

  it('keeps styles inside a wrapped line closed and reopened on each line', () => {
    const output = colored('**ตัวหนาที่ยาวมาก words that go on and on**', 16);
    const lines = output.split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) {
      expect(line.startsWith(`${escape}[1m`) && line.endsWith(`${escape}[22m`)).toBe(true);
      expect(line.split(escape)).toHaveLength(3);
    }
  });

  it('shows control characters from the model as pictures, so no escape code reaches the terminal without colour', () => {
    const markdown = 'ก่อน\x1b[2J\x1b]0;title\x07 หลัง ทับ \u009b31m\n\n```\nx\x1by\tz\n```\n\n| a\x1b | b |\n|---|---|\n| 1 | 2 |';
    const output = plain(markdown);
    expect(controlCharacters(output)).toEqual([]);
    expect(output).toContain('ก่อน␛[2J␛]0;title␇ หลัง ทับ �31m');
    expect(output).toContain('    x␛y    z');
    expect(withoutStyles(colored(markdown))).toBe(output);
  });

  it('renders an empty answer as nothing and never throws on deeply nested input', () => {
    expect(plain('')).toBe('');
    expect(colored('   \n\n')).toBe('');
    const deepQuote = `${'>'.repeat(20_000)} ลึก`;
    expect(() => plain(deepQuote)).not.toThrow();
    expect(plain(deepQuote)).toContain('ลึก');
    const deepList = `${'- '.repeat(5_000)}ลึก`;
    expect(withoutStyles(colored(deepList))).toContain('ลึก');
  });

  it('stops indenting past eight levels, so deep nesting with many lines stays linear in size', () => {
    const lines = Array.from({ length: 200 }, (_, index) => `บรรทัด ${index}`).join('\n');
    const markdown = `${'> '.repeat(400)}${lines}`;
    const output = plain(markdown);
    expect(output.length).toBeLessThan(markdown.length * 3);
    expect(output.split('\n').at(-1)).toBe(`${'│ '.repeat(8)}บรรทัด 199`);
  });

  it('renders a long mixed answer as the model writes it', () => {
    const answer = [
      '## วิธีติดตั้ง Saeng บนเซิร์ฟเวอร์',
      '',
      'ก่อนเริ่ม ต้องมี **Node.js 20** ขึ้นไป และ *สิทธิ์ sudo* ครับ ดูรายละเอียดที่ [คู่มือ](https://example.com/docs)',
      '',
      '1. ดาวน์โหลดโค้ด',
      '2. ติดตั้งแพ็กเกจด้วย `npm ci`',
      '   - ถ้าเจอ error ให้ลบ `node_modules` ก่อน',
      '3. ตั้งค่าไฟล์ `.env`',
      '',
      '```bash',
      'cp .env.example .env',
      'npm run build',
      '```',
      '',
      '> **หมายเหตุ:** อย่าใส่ token ลงใน git',
      '',
      '| ค่า | ความหมาย |',
      '|---|---|',
      '| `PORT` | พอร์ตที่ใช้ |',
      '| `TZ` | เขตเวลา |',
      '',
      'ราคา 100\\*2 = 200 บาท',
      '',
      '---',
      '',
      '**แหล่งที่มา**',
      '1. [คู่มือ](https://example.com/docs)',
    ].join('\n');
    const expected = [
      'วิธีติดตั้ง Saeng บนเซิร์ฟเวอร์',
      '',
      'ก่อนเริ่ม ต้องมี Node.js 20 ขึ้นไป และ สิทธิ์ sudo ครับ ดูรายละเอียดที่ คู่มือ (https://example.com/docs)',
      '',
      '1. ดาวน์โหลดโค้ด',
      '2. ติดตั้งแพ็กเกจด้วย npm ci',
      '   ◦ ถ้าเจอ error ให้ลบ node_modules ก่อน',
      '3. ตั้งค่าไฟล์ .env',
      '',
      '    cp .env.example .env',
      '    npm run build',
      '',
      '│ หมายเหตุ: อย่าใส่ token ลงใน git',
      '',
      'ค่า   │ ความหมาย',
      '──── │ ────────',
      'PORT │ พอร์ตที่ใช้',
      'TZ   │ เขตเวลา',
      '',
      'ราคา 100*2 = 200 บาท',
      '',
      '─'.repeat(40),
      '',
      'แหล่งที่มา',
      '',
      '1. คู่มือ (https://example.com/docs)',
    ].join('\n');
    expect(plain(answer)).toBe(expected);
    const withColor = colored(answer);
    expect(withoutStyles(withColor)).toBe(expected);
    expect(withColor).toContain(bold('Node.js 20'));
    expect(withColor).toContain(italic('สิทธิ์ sudo'));
    expect(withColor).toContain(cyan('npm ci'));
    expect(withColor).toContain(`${dim('│ ')}${bold('หมายเหตุ:')} อย่าใส่`);
    expect(withColor).not.toMatch(/\*\*|`|^#|^> /m);
  });

  it('for any answer: no escape code without colour, the same text with colour, no line starting with "> "', () => {
    fc.assert(
      fc.property(markdownDocument, fc.constantFrom(undefined, 30, 80), (markdown, width) => {
        const bare = plain(markdown, width);
        expect(controlCharacters(bare)).toEqual([]);
        expect(withoutStyles(colored(markdown, width))).toBe(bare);
        expect(bare).not.toMatch(/^> /m);
        expect(bare).not.toMatch(/[ \t]$/m);
      }),
      { seed: 20_240_611, numRuns: 40 },
    );
  });
});

/** A segmenter that records the length of every string it is asked to segment. */
class RecordingSegmenter extends Intl.Segmenter {
  readonly lengths: number[] = [];
  override segment(input: string): Intl.Segments {
    this.lengths.push(input.length);
    return super.segment(input);
  }
}

describe('segmentsOf', () => {
  // Thai with marks, a combining accent, an emoji with a skin tone, a ZWJ family and flags (pairs of regional indicators).
  const mixed = 'น้ำกำลังไหลเชี่ยว a\u0301 👍🏽 👨‍👩‍👧 🇹🇭🇯🇵 '.repeat(150);

  it('finds the same graphemes as one pass over the whole text, segmenting only short windows', () => {
    const recording = new RecordingSegmenter('th', { granularity: 'grapheme' });
    const windowed = [...segmentsOf(recording, mixed)];
    expect(Math.max(...recording.lengths)).toBeLessThanOrEqual(1024);
    expect(recording.lengths.length).toBeGreaterThan(5);
    const whole = [...new Intl.Segmenter('th', { granularity: 'grapheme' }).segment(mixed)].map(({ segment, index }) => ({ segment, index }));
    expect(windowed).toEqual(whole);
  });

  it('finds words in windows that together give back the text, spaces kept as their own segments', () => {
    const text = 'วันนี้อากาศดีมากเราจะไปเที่ยวทะเลกัน the sea is calm '.repeat(200);
    const words = [...segmentsOf(new Intl.Segmenter('th', { granularity: 'word' }), text)];
    expect(words.map((word) => word.segment).join('')).toBe(text);
    for (const [position, word] of words.entries())
      expect(word.index).toBe(position === 0 ? 0 : (words[position - 1]?.index ?? 0) + (words[position - 1]?.segment.length ?? 0));
    expect(words.filter((word) => word.segment === 'calm')).toHaveLength(200);
  });

  it('makes progress through a single grapheme longer than a window', () => {
    const zalgo = `a${'\u0301'.repeat(3000)}b`;
    expect([...segmentsOf(new Intl.Segmenter('th', { granularity: 'grapheme' }), zalgo)].map((grapheme) => grapheme.segment).join('')).toBe(zalgo);
  });
});
