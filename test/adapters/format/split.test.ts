import { describe, expect, it } from 'vitest';
import { renderForPlatform, renderWhole, splitRendered } from './by-platform.js';
import { telegramVisibleText } from '../telegram/html-validator.js';

const words = new Intl.Segmenter('th', { granularity: 'word' });

function wordStarts(text: string): Set<number> {
  const starts = new Set<number>([text.length]);
  for (const { index } of words.segment(text)) starts.add(index);
  return starts;
}

describe('splitting after rendering', () => {
  it('keeps an answer that fits in one part, untouched', () => {
    const html = renderWhole('**สวัสดี** <ครับ>', 'telegram');
    expect(splitRendered(html, 'telegram')).toEqual([{ text: html, reopened: '', body: html, closed: '', start: 0 }]);
    expect(renderForPlatform('', 'line')).toEqual([]);
  });

  it('cuts a long Thai paragraph with no spaces at word boundaries', () => {
    const paragraph = 'วันนี้อากาศดีมากเราจะไปเที่ยวทะเลกันที่จังหวัดชลบุรี'.repeat(40);
    const parts = renderForPlatform(paragraph, 'line', 200);
    expect(parts.length).toBeGreaterThan(5);
    expect(parts.join('')).toBe(paragraph);
    const starts = wordStarts(paragraph);
    let offset = 0;
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(200);
      offset += part.length;
      expect(starts.has(offset), `cut at ${offset} is not a word boundary`).toBe(true);
    }
  });

  it('never cuts inside a grapheme, even where a run has no word boundary', () => {
    // A consonant + vowel + tone mark cluster (กี่, three code units) and a letter with a combining accent.
    for (const cluster of ['กี่', 'a\u0301', '👍🏽']) {
      const text = cluster.repeat(300);
      const parts = renderForPlatform(text, 'line', 100);
      expect(parts.join('')).toBe(text);
      for (const part of parts) {
        expect(part.length).toBeLessThanOrEqual(100);
        expect(part.length % cluster.length, `a part of ${JSON.stringify(cluster)} ends inside a cluster`).toBe(0);
      }
    }
  });

  it('prefers a paragraph break, then a line break, to a word boundary', () => {
    const first = 'first paragraph with words '.repeat(3).trim();
    const second = 'line one of two\nline two of two and more';
    const parts = renderForPlatform(`${first}\n\n${second}`, 'line', first.length + 20);
    expect(parts).toEqual([`${first}\n\n`, 'line one of two\nline two of two and more']);
    expect(renderForPlatform('aaaa bbbb\ncccc dddd eeee', 'line', 16)).toEqual(['aaaa bbbb\n', 'cccc dddd eeee']);
  });

  it('closes the open Telegram tags at a cut and reopens them in the next part, never inside an entity', () => {
    const code = Array.from({ length: 40 }, (_, line) => `if (x < ${line} && y) go();`).join('\n');
    const parts = splitRendered(renderWhole(`\`\`\`ts\n${code}\n\`\`\``, 'telegram'), 'telegram', 200);
    expect(parts.length).toBeGreaterThan(3);
    for (const [index, part] of parts.entries()) {
      expect(telegramVisibleText(part.text).length).toBeLessThanOrEqual(200);
      if (index > 0) expect(part.reopened).toBe('<pre><code class="language-ts">');
      if (index < parts.length - 1) expect(part.closed).toBe('</code></pre>');
      expect(part.text).not.toMatch(/&[a-z]{0,3}$|^[a-z]{0,3};/);
    }
    expect(parts.map((part) => telegramVisibleText(part.text)).join('')).toBe(code);
  });

  it('counts Telegram text after entity parsing, not the markup', () => {
    const text = '<&>'.repeat(100);
    const parts = splitRendered(renderWhole(`**${text}**`, 'telegram'), 'telegram', 300);
    expect(parts).toHaveLength(1);
    expect(parts[0]?.text.length).toBeGreaterThan(300);
  });

  it('closes and reopens a Discord code fence with its language, counting the fences', () => {
    const code = Array.from({ length: 60 }, (_, line) => `print(${line})`).join('\n');
    const parts = splitRendered(renderWhole(`ก่อน\n\n\`\`\`python\n${code}\n\`\`\`\n\nหลัง`, 'discord'), 'discord', 150);
    expect(parts.length).toBeGreaterThan(4);
    for (const part of parts) {
      expect(part.text.length).toBeLessThanOrEqual(150);
      expect(part.text.split('\n').filter((line) => line.startsWith('```')).length % 2).toBe(0);
    }
    expect(parts.find((part) => part.reopened !== '')?.reopened).toBe('```python\n');
    expect(parts.find((part) => part.closed !== '')?.closed).toBe('```');
    expect(parts.map((part) => part.body).join('')).toBe(renderWhole(`ก่อน\n\n\`\`\`python\n${code}\n\`\`\`\n\nหลัง`, 'discord'));
  });

  it('refuses a limit too small for the markup a part must reopen', () => {
    expect(() => renderForPlatform(`\`\`\`typescript\n${'x\n'.repeat(50)}\`\`\``, 'discord', 12)).toThrow(RangeError);
  });
});
