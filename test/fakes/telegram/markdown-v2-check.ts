import type { MessageEntity } from 'telegraf/types';
import { badRequest, type BotApiError } from './api-error.js';
import type { ParsedText } from './html-entities-check.js';
import { isSpace, Utf8Cursor } from './utf8-cursor.js';

// parse_mode MarkdownV2, walked the way Telegram's server parser (tdlib `parse_markdown_v2`) walks it: the 18
// reserved characters must be escaped outside entities, only ` and \ inside code and pre; the same error sentences.

type Kind = 'Bold' | 'Italic' | 'Underline' | 'Strikethrough' | 'Spoiler' | 'Code' | 'Pre' | 'PreCode' | 'TextUrl' | 'CustomEmoji';

interface OpenEntity {
  kind: Kind;
  argument: string;
  utf16Offset: number;
  inputByte: number;
  outputByte: number;
}

const reserved = '_*[]()~`>#+-=|{}.!';
const parseError = (detail: string): BotApiError => badRequest(`can't parse entities: ${detail}`);
const reservedError = (character: string): BotApiError => parseError(`Character '${character}' is reserved and must be escaped with the preceding '\\'`);

function closesTop(kind: Kind, cursor: Utf8Cursor, index: number): boolean {
  const byte = cursor.char(index);
  const next = cursor.char(index + 1);
  switch (kind) {
    case 'Bold':
      return byte === '*';
    case 'Italic':
      return byte === '_' && next !== '_';
    case 'Underline':
      return byte === '_' && next === '_';
    case 'Strikethrough':
      return byte === '~';
    case 'Spoiler':
      return byte === '|' && next === '|';
    case 'Code':
      return byte === '`';
    case 'Pre':
    case 'PreCode':
      return byte === '`' && next === '`' && cursor.char(index + 2) === '`';
    case 'TextUrl':
    case 'CustomEmoji':
      return byte === ']';
  }
}

export function parseMarkdownV2(source: string): ParsedText {
  const cursor = new Utf8Cursor(source);
  const open: OpenEntity[] = [];
  const entities: MessageEntity[] = [];
  let quoteStart: number | undefined;
  for (let index = 0; index < cursor.size; index++) {
    const byte = cursor.at(index);
    const next = cursor.at(index + 1);
    if (byte === 0x5c && next > 0 && next <= 126) {
      index += 1;
      cursor.copyByte(next);
      continue;
    }
    const top = open.at(-1);
    const inCode = top !== undefined && (top.kind === 'Code' || top.kind === 'Pre' || top.kind === 'PreCode');
    const lineStart = index === 0 || cursor.at(index - 1) === 0x0a;
    if (byte === 0x3e && lineStart && !inCode) {
      quoteStart ??= cursor.utf16Length;
      continue;
    }
    if (byte === 0x0a && quoteStart !== undefined && cursor.at(index + 1) !== 0x3e) {
      if (cursor.utf16Length > quoteStart) entities.push({ type: 'blockquote', offset: quoteStart, length: cursor.utf16Length - quoteStart });
      quoteStart = undefined;
    }
    if (!(inCode ? '`' : reserved).includes(String.fromCharCode(byte)) || byte >= 0x80) {
      cursor.copyByte(byte);
      continue;
    }
    if (top && closesTop(top.kind, cursor, index)) {
      index = closeEntity(open.pop() as OpenEntity, cursor, index, entities);
      continue;
    }
    index = openEntity(cursor, index, open);
  }
  if (quoteStart !== undefined && cursor.utf16Length > quoteStart) {
    entities.push({ type: 'blockquote', offset: quoteStart, length: cursor.utf16Length - quoteStart });
  }
  const unclosed = open.at(-1);
  if (unclosed) throw parseError(`Can't find end of ${unclosed.kind} entity at byte offset ${unclosed.inputByte}`);
  entities.sort((left, right) => left.offset - right.offset || right.length - left.length);
  return { text: cursor.outputText(), entities };
}

/** Opens the entity that the reserved character at `start` begins; returns the index of its last marker byte. */
function openEntity(cursor: Utf8Cursor, start: number, open: OpenEntity[]): number {
  let index = start;
  const character = cursor.char(index);
  const next = cursor.char(index + 1);
  let kind: Kind;
  let argument = '';
  if (character === '_') {
    kind = next === '_' ? 'Underline' : 'Italic';
    if (next === '_') index += 1;
  } else if (character === '*') kind = 'Bold';
  else if (character === '~') kind = 'Strikethrough';
  else if (character === '[') kind = 'TextUrl';
  else if (character === '|' && next === '|') {
    kind = 'Spoiler';
    index += 1;
  } else if (character === '!' && next === '[') {
    kind = 'CustomEmoji';
    index += 1;
  } else if (character === '`' && next === '`' && cursor.char(index + 2) === '`') {
    index += 3;
    kind = 'Pre';
    let languageEnd = index;
    while (!isSpace(cursor.at(languageEnd)) && cursor.char(languageEnd) !== '`') languageEnd += 1;
    if (languageEnd !== index && languageEnd < cursor.size && cursor.char(languageEnd) !== '`') {
      kind = 'PreCode';
      argument = cursor.bytes.subarray(index, languageEnd).toString('utf8');
      index = languageEnd;
    }
    // One newline right after the opening fence is not part of the text.
    if (cursor.char(index) === '\n' || cursor.char(index) === '\r') {
      const pair = (cursor.char(index + 1) === '\n' || cursor.char(index + 1) === '\r') && cursor.at(index) !== cursor.at(index + 1);
      index += pair ? 2 : 1;
    }
    index -= 1;
  } else if (character === '`') kind = 'Code';
  else throw reservedError(character);
  open.push({ kind, argument, utf16Offset: cursor.utf16Length, inputByte: start, outputByte: cursor.outputByteLength() });
  return index;
}

/** Closes `entity` at the marker at `start`; returns the index of the marker's last byte. */
function closeEntity(entity: OpenEntity, cursor: Utf8Cursor, start: number, entities: MessageEntity[]): number {
  let index = start;
  const offset = entity.utf16Offset;
  const length = cursor.utf16Length - offset;
  let url = '';
  if (entity.kind === 'Underline' || entity.kind === 'Spoiler') index += 1;
  if (entity.kind === 'Pre' || entity.kind === 'PreCode') index += 2;
  if (entity.kind === 'TextUrl' || entity.kind === 'CustomEmoji') {
    if (cursor.char(index + 1) !== '(') url = cursor.outputText(entity.outputByte);
    else {
      index += 2;
      const urlStart = index;
      const urlBytes: number[] = [];
      while (index < cursor.size && cursor.char(index) !== ')') {
        const escaped = cursor.char(index) === '\\' && cursor.at(index + 1) > 0 && cursor.at(index + 1) <= 126;
        urlBytes.push(cursor.at(escaped ? index + 1 : index));
        index += escaped ? 2 : 1;
      }
      if (cursor.char(index) !== ')') throw parseError(`Can't find end of a URL at byte offset ${urlStart}`);
      url = Buffer.from(urlBytes).toString('utf8');
    }
  }
  if (length === 0) return index;
  const simple = { Bold: 'bold', Italic: 'italic', Underline: 'underline', Strikethrough: 'strikethrough', Spoiler: 'spoiler', Code: 'code' } as const;
  if (entity.kind in simple) entities.push({ type: simple[entity.kind as keyof typeof simple], offset, length });
  else if (entity.kind === 'Pre') entities.push({ type: 'pre', offset, length });
  else if (entity.kind === 'PreCode') entities.push({ type: 'pre', offset, length, language: entity.argument });
  else if (entity.kind === 'TextUrl') entities.push({ type: 'text_link', offset, length, url });
  else entities.push({ type: 'custom_emoji', offset, length, custom_emoji_id: url.replace('tg://emoji?id=', '') });
  return index;
}
