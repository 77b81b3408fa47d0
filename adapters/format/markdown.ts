import { Lexer, type MarkedToken, type Token, type Tokens } from 'marked';
import type { Alignment, Block, Inline, ListItem } from './document.js';

// Parses the agent's Markdown once with marked's lexer (GFM: tables, strikethrough, task lists, autolinks) and
// turns its tokens into the typed tree of document.ts. marked renders nothing here: raw HTML in the model's
// Markdown becomes literal text, which each renderer escapes for its platform.

const namedReferences: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Decodes the character references CommonMark resolves in text (the common named ones and numeric ones). */
function decodeReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-z]{2,4});/g, (whole, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return namedReferences[name] ?? whole;
  });
}

/** The tokens marked's own types describe; anything else (an extension's token) is read as its raw text. */
type Known = MarkedToken;

const knownTypes = new Set<string>([
  ...['blockquote', 'br', 'checkbox', 'code', 'codespan', 'def', 'del', 'em', 'escape', 'heading', 'hr', 'html', 'image'],
  ...['link', 'list', 'list_item', 'paragraph', 'space', 'strong', 'table', 'text'],
]);

function known(token: Token): Known | undefined {
  return knownTypes.has(token.type) ? (token as Known) : undefined;
}

function inlines(tokens: readonly Token[] | undefined): Inline[] {
  const result: Inline[] = [];
  for (const token of tokens ?? []) result.push(...inline(token));
  return result;
}

function inline(token: Token): Inline[] {
  const typed = known(token);
  if (!typed) return [{ kind: 'text', text: token.raw }];
  switch (typed.type) {
    case 'text':
      return typed.tokens ? inlines(typed.tokens) : [{ kind: 'text', text: decodeReferences(typed.text) }];
    case 'escape':
      return [{ kind: 'text', text: typed.text }];
    case 'html':
      // Raw HTML the model typed is shown as typed, never interpreted.
      return [{ kind: 'text', text: typed.text }];
    case 'strong':
      return [{ kind: 'strong', children: inlines(typed.tokens) }];
    case 'em':
      return [{ kind: 'emphasis', children: inlines(typed.tokens) }];
    case 'del':
      return [{ kind: 'strike', children: inlines(typed.tokens) }];
    case 'codespan':
      return [{ kind: 'code', text: decodeReferences(typed.text) }];
    case 'br':
      return [{ kind: 'break' }];
    case 'link':
      return [{ kind: 'link', href: typed.href, children: typed.autolink ? [{ kind: 'text', text: typed.text }] : inlines(typed.tokens) }];
    case 'image':
      // No image goes inline into a chat message: its description links to it.
      return [{ kind: 'link', href: typed.href, children: [{ kind: 'text', text: typed.text || typed.href }] }];
    case 'checkbox':
    case 'space':
    case 'def':
      return [];
    case 'blockquote':
    case 'code':
    case 'heading':
    case 'hr':
    case 'list':
    case 'list_item':
    case 'paragraph':
    case 'table':
      return [{ kind: 'text', text: typed.raw }];
  }
}

function listItem(item: Tokens.ListItem): ListItem {
  return { checked: item.task ? item.checked === true : undefined, blocks: blocks(item.tokens) };
}

function cells(row: readonly Tokens.TableCell[]): Inline[][] {
  return row.map((cell) => inlines(cell.tokens));
}

function block(token: Token): Block[] {
  const typed = known(token);
  if (!typed) return [{ kind: 'paragraph', content: [{ kind: 'text', text: token.raw }] }];
  switch (typed.type) {
    case 'paragraph':
      return [{ kind: 'paragraph', content: inlines(typed.tokens) }];
    case 'text':
      // Tight list items hold their text as a block-level text token.
      return [{ kind: 'paragraph', content: typed.tokens ? inlines(typed.tokens) : [{ kind: 'text', text: decodeReferences(typed.text) }] }];
    case 'heading':
      return [{ kind: 'heading', depth: typed.depth, content: inlines(typed.tokens) }];
    case 'code':
      return [{ kind: 'code', language: typed.lang?.trim().split(' ')[0] ?? '', text: typed.text }];
    case 'list':
      return [{ kind: 'list', ordered: typed.ordered, start: typed.start === '' ? 1 : typed.start, items: typed.items.map(listItem) }];
    case 'blockquote':
      return [{ kind: 'quote', blocks: blocks(typed.tokens) }];
    case 'table': {
      const align: Alignment[] = typed.align;
      return [{ kind: 'table', header: cells(typed.header), rows: typed.rows.map(cells), align }];
    }
    case 'hr':
      return [{ kind: 'rule' }];
    case 'html':
      return typed.text.trim() === '' ? [] : [{ kind: 'paragraph', content: [{ kind: 'text', text: typed.text.trimEnd() }] }];
    case 'space':
    case 'def':
    case 'checkbox':
      return [];
    case 'list_item':
      return listItem(typed).blocks;
    case 'br':
    case 'codespan':
    case 'del':
    case 'em':
    case 'escape':
    case 'image':
    case 'link':
    case 'strong':
      return [{ kind: 'paragraph', content: inline(typed) }];
  }
}

function blocks(tokens: readonly Token[]): Block[] {
  return tokens.flatMap(block);
}

/** The agent's Markdown as blocks; never throws on any input. */
export function parseMarkdown(markdown: string): Block[] {
  return blocks(new Lexer({ gfm: true }).lex(markdown));
}
