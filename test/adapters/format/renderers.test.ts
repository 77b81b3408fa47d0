import { describe, expect, it } from 'vitest';
import { renderWhole, type FormattedPlatform } from './by-platform.js';
import { telegramVisibleText } from '../telegram/html-validator.js';

// One answer, three renderers: examples in Thai and English for each Markdown construct.

interface Example {
  name: string;
  markdown: string;
  expected: Record<FormattedPlatform, string>;
}

const examples: Example[] = [
  {
    name: 'headings: bold on Telegram, kept to ### on Discord, 【】 on LINE',
    markdown: '# สรุป *ผล*\n\n#### Deep heading',
    expected: {
      telegram: '<b>สรุป <i>ผล</i></b>\n\n<b>Deep heading</b>',
      discord: '# สรุป *ผล*\n\n**Deep heading**',
      line: '【สรุป ผล】\n\n【Deep heading】',
    },
  },
  {
    name: 'bold, italic, strikethrough and code spans',
    markdown: 'ใช้ **ตัวหนา** _เอียง_ ~~ขีดฆ่า~~ และ `npm i`',
    expected: {
      telegram: 'ใช้ <b>ตัวหนา</b> <i>เอียง</i> <s>ขีดฆ่า</s> และ <code>npm i</code>',
      discord: 'ใช้ **ตัวหนา** *เอียง* ~~ขีดฆ่า~~ และ `npm i`',
      line: 'ใช้ ตัวหนา เอียง ขีดฆ่า และ npm i',
    },
  },
  {
    name: 'nested lists with bullets, numbers and task boxes',
    markdown: '- ผลไม้\n  - มะม่วง\n    1. first\n- [x] done',
    expected: {
      telegram: '• ผลไม้\n  ◦ มะม่วง\n    1. first\n☑ done',
      discord: '- ผลไม้\n  - มะม่วง\n    1. first\n☑ done',
      line: '• ผลไม้\n  ◦ มะม่วง\n    1. first\n☑ done',
    },
  },
  {
    // ชื่อ is two graphemes and น้ำ one: a grapheme is one column, good enough for Thai in a monospace font.
    name: 'tables as aligned columns, widths in graphemes (Thai marks take no column)',
    markdown: '| ชื่อ | qty |\n|:--|--:|\n| น้ำ | 2 |\n| apple | 10 |',
    expected: {
      telegram: '<pre>ชื่อ     qty\n─────  ───\nน้ำ        2\napple   10</pre>',
      discord: '```\nชื่อ     qty\n─────  ───\nน้ำ        2\napple   10\n```',
      line: 'ชื่อ    │ qty\n───── │ ───\nน้ำ     │   2\napple │  10',
    },
  },
  {
    name: 'code blocks with their language, escaped on Telegram only',
    markdown: '```ts\nif (a < b && c > d) {}\n```',
    expected: {
      telegram: '<pre><code class="language-ts">if (a &lt; b &amp;&amp; c &gt; d) {}</code></pre>',
      discord: '```ts\nif (a < b && c > d) {}\n```',
      line: 'if (a < b && c > d) {}',
    },
  },
  {
    name: 'links with text, bare links and images',
    markdown: 'ดู [เอกสาร](https://example.com/a_b) หรือ https://example.org และ ![รูป](https://example.com/p.png)',
    expected: {
      telegram:
        'ดู <a href="https://example.com/a_b">เอกสาร</a> หรือ <a href="https://example.org">https://example.org</a> และ <a href="https://example.com/p.png">รูป</a>',
      discord: 'ดู [เอกสาร](https://example.com/a_b) หรือ https://example.org และ [รูป](https://example.com/p.png)',
      line: 'ดู เอกสาร (https://example.com/a_b) หรือ https://example.org และ รูป (https://example.com/p.png)',
    },
  },
  {
    name: 'literal < & > and the model’s raw HTML shown as typed',
    markdown: 'AT&T: 1 < 2 > 0, <b>not bold</b> &amp; <script>x</script>',
    expected: {
      telegram: 'AT&amp;T: 1 &lt; 2 &gt; 0, &lt;b&gt;not bold&lt;/b&gt; &amp; &lt;script&gt;x&lt;/script&gt;',
      discord: 'AT&T: 1 \\< 2 \\> 0, \\<b\\>not bold\\</b\\> & \\<script\\>x\\</script\\>',
      line: 'AT&T: 1 < 2 > 0, <b>not bold</b> & <script>x</script>',
    },
  },
  {
    name: 'a raw HTML block stays text',
    markdown: '<div>\nบล็อก\n</div>',
    expected: { telegram: '&lt;div&gt;\nบล็อก\n&lt;/div&gt;', discord: '\\<div\\>\nบล็อก\n\\</div\\>', line: '<div>\nบล็อก\n</div>' },
  },
  {
    name: 'quotes, one level deep, and rules',
    markdown: '> คำพูด\n>\n> > ซ้อน\n\n---',
    expected: {
      telegram: '<blockquote>คำพูด\n\nซ้อน</blockquote>\n\n──────────',
      discord: '> คำพูด\n> \n> ซ้อน\n\n──────────',
      line: '┃ คำพูด\n┃ \n┃ ┃ ซ้อน\n\n──────────',
    },
  },
  {
    name: 'literal Markdown markers the model escaped stay literal',
    markdown: '2\\*3 = 6, a\\_b, \\# not a heading',
    expected: { telegram: '2*3 = 6, a_b, # not a heading', discord: '2\\*3 = 6, a\\_b, \\# not a heading', line: '2*3 = 6, a_b, # not a heading' },
  },
];

describe('renderers', () => {
  for (const example of examples) {
    for (const platform of ['telegram', 'discord', 'line'] as const) {
      it(`${platform}: ${example.name}`, () => {
        expect(renderWhole(example.markdown, platform)).toBe(example.expected[platform]);
      });
    }
    it(`telegram: ${example.name} is valid for Telegram's parser`, () => {
      expect(() => telegramVisibleText(renderWhole(example.markdown, 'telegram'))).not.toThrow();
    });
  }

  it('never nests code inside another Telegram entity, nor links inside links', () => {
    const html = renderWhole('**ใช้ `npm` ก่อน** [ดู `x`](https://example.com)', 'telegram');
    expect(html).toBe('<b>ใช้ npm ก่อน</b> <a href="https://example.com">ดู x</a>');
    expect(() => telegramVisibleText(html)).not.toThrow();
  });

  it('gives a link Telegram would refuse as text, and escapes quotes in addresses', () => {
    expect(renderWhole('[run](javascript:alert(1)) [q](https://e.com/?a="b")', 'telegram')).toBe(
      'run (javascript:alert(1)) <a href="https://e.com/?a=&quot;b&quot;">q</a>',
    );
  });

  it('keeps a fence inside Discord code from ending the block', () => {
    expect(renderWhole('````md\n```js\nx\n```\n````', 'discord')).toBe('```md\n\u200b```js\nx\n\u200b```\n```');
  });

  it('renders nothing for an empty answer', () => {
    for (const platform of ['telegram', 'discord', 'line'] as const) expect(renderWhole('', platform)).toBe('');
  });
});
