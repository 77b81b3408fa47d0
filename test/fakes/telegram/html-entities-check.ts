import type { MessageEntity } from 'telegraf/types';
import { badRequest, type BotApiError } from './api-error.js';
import { isAsciiDigit, isAsciiLetter, isSpace, Utf8Cursor } from './utf8-cursor.js';

// parse_mode HTML, walked the way Telegram's server parser (tdlib `parse_html`) walks it: the same tags, the same
// error sentences with byte offsets, entities in UTF-16 code units. Unknown `&name;` stays literal text, as there.

export interface ParsedText {
  text: string;
  entities: MessageEntity[];
}

const supportedTags = new Set(['a', 'b', 'strong', 'i', 'em', 's', 'strike', 'del', 'u', 'ins', 'tg-spoiler', 'tg-emoji', 'span', 'pre', 'code', 'blockquote']);
const simpleTypes: Record<string, 'bold' | 'italic' | 'strikethrough' | 'underline' | 'spoiler'> = {
  b: 'bold',
  strong: 'bold',
  i: 'italic',
  em: 'italic',
  s: 'strikethrough',
  strike: 'strikethrough',
  del: 'strikethrough',
  u: 'underline',
  ins: 'underline',
  'tg-spoiler': 'spoiler',
  span: 'spoiler',
};

interface OpenTag {
  name: string;
  argument: string;
  utf16Offset: number;
  outputByte: number;
}

const parseError = (detail: string): BotApiError => badRequest(`can't parse entities: ${detail}`);

/** `&lt;` `&gt;` `&amp;` `&quot;` and numeric references (the `;` is optional); 0 when there is none at `start`. */
function decodeEntity(cursor: Utf8Cursor, start: number): { codePoint: number; next: number } | undefined {
  let end = start + 1;
  let codePoint = 0;
  if (cursor.at(end) === 0x23) {
    end += 1;
    const hex = cursor.at(end) === 0x78;
    if (hex) end += 1;
    const digits = hex ? /^[0-9a-fA-F]{1,8}/ : /^[0-9]{1,10}/;
    const match = digits.exec(cursor.bytes.subarray(end, end + 10).toString('latin1'));
    if (match) {
      codePoint = Number.parseInt(match[0], hex ? 16 : 10);
      end += match[0].length;
    }
    if (codePoint === 0 || codePoint >= 0x10ffff || end - start >= 10) return undefined;
  } else {
    while (isAsciiLetter(cursor.at(end)) && end - start < 8) end += 1;
    const name = cursor.bytes.subarray(start + 1, end).toString('latin1');
    const named: Record<string, number> = { lt: 0x3c, gt: 0x3e, amp: 0x26, quot: 0x22 };
    codePoint = named[name] ?? 0;
    if (codePoint === 0) return undefined;
  }
  return { codePoint, next: cursor.at(end) === 0x3b ? end + 1 : end };
}

export function parseHtml(source: string): ParsedText {
  const cursor = new Utf8Cursor(source);
  const open: OpenTag[] = [];
  const entities: MessageEntity[] = [];
  const codeLanguages = new Map<MessageEntity, string>();
  let index = 0;
  while (index < cursor.size) {
    const byte = cursor.at(index);
    if (byte === 0x26) {
      const decoded = decodeEntity(cursor, index);
      if (decoded) {
        cursor.appendCodePoint(decoded.codePoint);
        index = decoded.next;
        continue;
      }
    }
    if (byte !== 0x3c) {
      cursor.copyByte(byte);
      index += 1;
      continue;
    }
    const tagStart = index;
    index += 1;
    if (cursor.at(index) !== 0x2f) {
      index = readStartTag(cursor, tagStart, open);
      continue;
    }
    if (open.length === 0) throw parseError(`Unexpected end tag at byte offset ${tagStart}`);
    while (!isSpace(cursor.at(index)) && cursor.at(index) !== 0x3e) index += 1;
    const endName = cursor.bytes.subarray(tagStart + 2, index).toString('utf8');
    while (isSpace(cursor.at(index)) && index < cursor.size) index += 1;
    if (cursor.at(index) !== 0x3e) throw parseError(`Unclosed end tag at byte offset ${tagStart}`);
    index += 1;
    const tag = open.pop() as OpenTag;
    if (endName !== '' && endName !== tag.name) {
      throw parseError(`Unmatched end tag at byte offset ${tagStart}, expected "</${tag.name}>", found "</${endName}>"`);
    }
    closeTag(tag, cursor, entities, codeLanguages);
  }
  const unclosed = open.at(-1);
  if (unclosed) throw parseError(`Can't find end tag corresponding to start tag "${unclosed.name}"`);
  entities.sort((left, right) => left.offset - right.offset || right.length - left.length);
  return { text: cursor.outputText(), entities };
}

/** Reads `<name attr="value" …>` from just after `<`; returns the index after `>`. */
function readStartTag(cursor: Utf8Cursor, tagStart: number, open: OpenTag[]): number {
  let index = tagStart + 1;
  while (!isSpace(cursor.at(index)) && cursor.at(index) !== 0x3e) index += 1;
  if (cursor.at(index) === 0 && index >= cursor.size) throw parseError(`Unclosed start tag at byte offset ${tagStart}`);
  const name = cursor.bytes
    .subarray(tagStart + 1, index)
    .toString('utf8')
    .toLowerCase();
  if (!supportedTags.has(name)) throw parseError(`Unsupported start tag "${name}" at byte offset ${tagStart}`);
  let argument = '';
  while (cursor.at(index) !== 0x3e) {
    while (index < cursor.size && isSpace(cursor.at(index))) index += 1;
    if (cursor.at(index) === 0x3e) break;
    if (index >= cursor.size) throw parseError(`Unclosed start tag "${name}" at byte offset ${tagStart}`);
    const attributeStart = index;
    while (!isSpace(cursor.at(index)) && cursor.at(index) !== 0x3d && cursor.at(index) !== 0x3e) index += 1;
    const attribute = cursor.bytes.subarray(attributeStart, index).toString('utf8');
    if (attribute === '') throw parseError(`Empty attribute name in the tag "${name}" at byte offset ${tagStart}`);
    while (index < cursor.size && isSpace(cursor.at(index))) index += 1;
    if (name === 'blockquote' && attribute === 'expandable' && cursor.at(index) !== 0x3d) {
      argument = 'expandable';
      continue;
    }
    if (cursor.at(index) !== 0x3d) throw parseError(`Expected equal sign in declaration of an attribute of the tag "${name}" at byte offset ${tagStart}`);
    index += 1;
    while (index < cursor.size && isSpace(cursor.at(index))) index += 1;
    if (index >= cursor.size) throw parseError(`Unclosed start tag "${name}" at byte offset ${tagStart}`);
    const value = readAttributeValue(cursor, index, tagStart);
    index = value.next;
    if (name === 'a' && attribute === 'href') argument = value.text;
    else if (name === 'code' && attribute === 'class' && value.text.startsWith('language-')) argument = value.text.slice('language-'.length);
    else if (name === 'span' && attribute === 'class' && value.text === 'tg-spoiler') argument = value.text;
    else if (name === 'tg-emoji' && attribute === 'emoji-id') argument = value.text;
  }
  if (name === 'span' && argument !== 'tg-spoiler') throw parseError('Tag "span" must have class "tg-spoiler"');
  open.push({ name, argument, utf16Offset: cursor.utf16Length, outputByte: cursor.outputByteLength() });
  return index + 1;
}

function readAttributeValue(cursor: Utf8Cursor, start: number, tagStart: number): { text: string; next: number } {
  let index = start;
  const quote = cursor.at(index);
  if (quote !== 0x22 && quote !== 0x27) {
    // An unquoted name token: letters, digits, periods and hyphens.
    while (isAsciiLetter(cursor.at(index)) || isAsciiDigit(cursor.at(index)) || cursor.at(index) === 0x2e || cursor.at(index) === 0x2d) index += 1;
    if (!isSpace(cursor.at(index)) && cursor.at(index) !== 0x3e) throw parseError(`Unexpected end of name token at byte offset ${start}`);
    return { text: cursor.bytes.subarray(start, index).toString('utf8').toLowerCase(), next: index };
  }
  index += 1;
  const value = new Utf8Cursor('');
  while (index < cursor.size && cursor.at(index) !== quote) {
    const decoded = cursor.at(index) === 0x26 ? decodeEntity(cursor, index) : undefined;
    if (decoded) {
      value.appendCodePoint(decoded.codePoint);
      index = decoded.next;
    } else {
      value.copyByte(cursor.at(index));
      index += 1;
    }
  }
  if (cursor.at(index) === quote) index += 1;
  if (index >= cursor.size) throw parseError(`Unclosed start tag at byte offset ${tagStart}`);
  return { text: value.outputText(), next: index };
}

function closeTag(tag: OpenTag, cursor: Utf8Cursor, entities: MessageEntity[], codeLanguages: Map<MessageEntity, string>): void {
  const offset = tag.utf16Offset;
  const length = cursor.utf16Length - offset;
  if (length === 0) return;
  const simple = simpleTypes[tag.name];
  if (simple) entities.push({ type: simple, offset, length });
  else if (tag.name === 'a') {
    const url = tag.argument === '' ? cursor.outputText(tag.outputByte) : tag.argument;
    entities.push({ type: 'text_link', offset, length, url });
  } else if (tag.name === 'tg-emoji') entities.push({ type: 'custom_emoji', offset, length, custom_emoji_id: tag.argument });
  else if (tag.name === 'code') {
    const code: MessageEntity = { type: 'code', offset, length };
    if (tag.argument !== '') codeLanguages.set(code, tag.argument);
    entities.push(code);
  } else if (tag.name === 'pre') {
    // `<pre><code class="language-x">…</code></pre>` is one pre entity with a language.
    const last = entities.at(-1);
    const language = last && last.offset === offset && last.length === length ? codeLanguages.get(last) : undefined;
    if (language === undefined) entities.push({ type: 'pre', offset, length });
    else entities[entities.length - 1] = { type: 'pre', offset, length, language };
  } else if (tag.name === 'blockquote') {
    // expandable_blockquote is Bot API 7.4, newer than the 7.1 typings telegraf 4.16 ships.
    const type = tag.argument === 'expandable' ? 'expandable_blockquote' : 'blockquote';
    entities.push({ type, offset, length } as unknown as MessageEntity);
  }
}
