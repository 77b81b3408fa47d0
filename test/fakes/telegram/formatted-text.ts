import type { MessageEntity } from 'telegraf/types';
import { badRequest } from './api-error.js';
import { parseHtml, type ParsedText } from './html-entities-check.js';
import { parseMarkdownV2 } from './markdown-v2-check.js';
import { optionalJson, optionalString, type Params } from './params.js';

// Text and captions as the server stores them: parse_mode applied (or explicit entities taken instead of it),
// then the length rules on the text left after entity parsing. Lengths are counted in UTF-16 code units, the unit
// of entity offsets.

export const textLimit = 4096;
export const captionLimit = 1024;

function parseWithMode(source: string, parseMode: string | undefined): ParsedText {
  if (parseMode === undefined || parseMode === '') return { text: source, entities: [] };
  if (parseMode === 'HTML') return parseHtml(source);
  if (parseMode === 'MarkdownV2') return parseMarkdownV2(source);
  // Legacy Markdown is accepted without a check: nothing here sends it.
  if (parseMode === 'Markdown') return { text: source, entities: [] };
  throw badRequest('unsupported parse_mode');
}

function parseGiven(params: Params, textField: string, entitiesField: string): ParsedText {
  const source = optionalString(params, textField) ?? '';
  const given = optionalJson(params, entitiesField);
  if (Array.isArray(given)) return { text: source, entities: given as MessageEntity[] };
  return parseWithMode(source, optionalString(params, 'parse_mode'));
}

/** `text` of sendMessage / editMessageText: required, 1–4096 after parsing. */
export function messageText(params: Params): ParsedText {
  const parsed = parseGiven(params, 'text', 'entities');
  if (parsed.text.trim() === '') throw badRequest('message text is empty');
  if (parsed.text.length > textLimit) throw badRequest('message is too long');
  return parsed;
}

/** `caption` of sendPhoto / sendDocument: optional, 0–1024 after parsing. */
export function captionText(params: Params): ParsedText | undefined {
  if (optionalString(params, 'caption') === undefined) return undefined;
  const parsed = parseGiven(params, 'caption', 'caption_entities');
  if (parsed.text.length > captionLimit) throw badRequest('message caption is too long');
  return parsed.text === '' ? undefined : parsed;
}
