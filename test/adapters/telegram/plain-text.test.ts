import { describe, expect, it } from 'vitest';
import { htmlToPlainText } from '../../../adapters/telegram/plain-text.js';
import { parseHtml } from '../../fakes/telegram/index.js';

// The plain-text fallback must show the words Telegram would have shown for the HTML.

describe('htmlToPlainText', () => {
  it.each([
    '<b>ตัวหนา</b> และ <i>เอียง</i> 😀',
    'ราคา &lt; 100 &amp;&amp; &gt; 50 &quot;บาท&quot; &#3647; &#x1F600;',
    '<pre><code class="language-ts">const a = 1 &lt; 2;</code></pre>',
    '<blockquote expandable>ยกมา</blockquote>\n<tg-spoiler>ซ่อน</tg-spoiler> <s>ขีด</s> <u>เส้น</u>',
    '<a href="https://example.com">https://example.com</a>',
  ])('matches the text Telegram parses out of %s', (html) => {
    expect(htmlToPlainText(html)).toBe(parseHtml(html).text);
  });

  it('keeps a link target after its text, so the plain answer still carries the source', () => {
    expect(htmlToPlainText('ดู <a href="https://example.com/?a=1&amp;b=2">ข่าว</a> นี้')).toBe('ดู ข่าว (https://example.com/?a=1&b=2) นี้');
  });

  it('leaves a stray "<" that is no tag, and survives unclosed and overlong tags', () => {
    expect(htmlToPlainText('1 < 2 <b>จริง')).toBe('1 < 2 จริง');
    expect(htmlToPlainText(`<${'x'.repeat(2000)}`)).toBe(`<${'x'.repeat(2000)}`);
    expect(htmlToPlainText('a <1b> c')).toBe('a <1b> c');
  });
});
