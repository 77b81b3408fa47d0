import type { Mark, MarkedText } from '../format/split.js';

// Reads the Telegram HTML that render-html.ts rendered back into text and tag marks, so the splitter counts
// what Telegram counts (the text after entity parsing, in UTF-16 code units) and cuts only between tags.

const entities: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"' };

function decodeEntity(entity: string): string {
  const named = entities[entity];
  if (named !== undefined) return named;
  const hex = entity.startsWith('&#x') || entity.startsWith('&#X');
  const code = Number.parseInt(entity.slice(hex ? 3 : 2, -1), hex ? 16 : 10);
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
}

function tagName(tag: string): string {
  const start = tag.startsWith('</') ? 2 : 1;
  let end = start;
  while (end < tag.length && tag[end] !== ' ' && tag[end] !== '>' && tag[end] !== '/') end += 1;
  return tag.slice(start, end).toLowerCase();
}

export function readTelegramHtml(html: string): MarkedText {
  const marks: Mark[] = [];
  let text = '';
  let plainFrom = 0;
  let index = 0;
  while (index < html.length) {
    const character = html[index];
    const end = character === '<' ? html.indexOf('>', index) : character === '&' ? html.indexOf(';', index) : -1;
    // An entity is short; a '&' without one (never rendered, but possible) counts as itself.
    if (end === -1 || (character === '&' && end - index > 10)) {
      index += 1;
      continue;
    }
    text += html.slice(plainFrom, index);
    const piece = html.slice(index, end + 1);
    if (character === '&') text += decodeEntity(piece);
    else if (piece.startsWith('</')) marks.push({ kind: 'close', at: text.length, raw: piece, size: 0 });
    else {
      const closer = `</${tagName(piece)}>`;
      marks.push({ kind: 'open', at: text.length, raw: piece, size: 0, closer, closerAfterLineEnd: closer, closerSize: 0 });
    }
    index = end + 1;
    plainFrom = index;
  }
  return { text: text + html.slice(plainFrom), marks };
}
