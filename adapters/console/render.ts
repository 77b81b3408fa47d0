import type { Block, Inline, ListItem } from '../format/document.js';
import { itemMarker } from '../format/list-layout.js';
import { parseMarkdown } from '../format/markdown.js';
import { flattenLine, isBareLink, plainInline } from '../format/plain-inline.js';
import { layoutTable } from '../format/table-layout.js';
import { showControls } from './terminal-safe.js';
import { serializeLine, span, Style, toLines, trimLineEnd, type Span, type StyleSet, type StyledLine } from './terminal-style.js';
import { terminalWidth } from './terminal-width.js';
import { wrapLine } from './terminal-wrap.js';

// The console chat's rendering: the agent's Markdown as terminal text. Bold, italic and code as ANSI styles
// (or bare words without colour), headings as bold lines, lists with bullets and hanging indents, tables as
// aligned columns, code indented, quotes behind "│ " — never "> ", which is the console's own prompt.

export interface TerminalTextOptions {
  /** ANSI styles; without, the output holds no escape code at all. */
  color: boolean;
  /** Columns to wrap paragraphs at; no wrapping when absent. */
  width?: number;
}

interface Context {
  /** Columns left for this block's text, or undefined for no wrapping. */
  width: number | undefined;
  /** Lists and quotes around this block. */
  depth: number;
  /** Lists around this block: picks the bullet. */
  listDepth: number;
}

/** Text narrower than this is not worth wrapping for: deep nesting in a narrow terminal simply overflows. */
const narrowest = 16;
const widestRule = 40;
/** Deeper lists and quotes get no further indent, so the output stays linear in the input however deep it nests. */
const deepestIndent = 8;
const codeIndent = '    ';
const quoteBar = '│';

/** Appends the spans of `content` to `spans` (one array for the whole paragraph: deep emphasis copies nothing). */
function renderInline(content: readonly Inline[], style: StyleSet, spans: Span[] = []): Span[] {
  for (const node of content) {
    switch (node.kind) {
      case 'text':
        spans.push(span(node.text, style));
        break;
      case 'break':
        spans.push(span('\n', style));
        break;
      case 'code':
        spans.push(span(node.text.replace(/\n/g, ' '), style | Style.cyan));
        break;
      case 'strong':
        renderInline(node.children, style | Style.bold, spans);
        break;
      case 'emphasis':
        renderInline(node.children, style | Style.italic, spans);
        break;
      case 'strike':
        renderInline(node.children, style | Style.strike, spans);
        break;
      case 'link':
        if (isBareLink(plainInline(node.children), node.href)) spans.push(span(node.href, style));
        else {
          renderInline(node.children, style, spans);
          spans.push(span(` (${node.href})`, style));
        }
        break;
    }
  }
  return spans;
}

function wrapped(lines: readonly StyledLine[], width: number | undefined): StyledLine[] {
  return width === undefined ? [...lines] : lines.flatMap((line) => wrapLine(line, width));
}

function nested(context: Context, columns: number, lists: number): Context {
  const width = context.width === undefined ? undefined : Math.max(narrowest, context.width - columns);
  return { width, depth: context.depth + 1, listDepth: context.listDepth + lists };
}

/** `first` before the first line, `rest` before every other non-empty line. */
function prefixed(lines: readonly StyledLine[], first: Span, rest: Span): StyledLine[] {
  if (lines.length === 0) return [trimLineEnd([first])];
  return lines.map((line, index) => (index === 0 ? [first, ...line] : line.length === 0 || rest.text === '' ? line : [rest, ...line]));
}

function renderList(block: Extract<Block, { kind: 'list' }>, context: Context): StyledLine[] {
  const markers = block.items.map((item: ListItem, index) => itemMarker(block.ordered, block.start + index, context.listDepth, item));
  const widest = markers.reduce((most, marker) => Math.max(most, terminalWidth(marker)), 0);
  const indented = context.depth < deepestIndent;
  const inner = nested(context, indented ? widest : 0, 1);
  return block.items.flatMap((item, index) => {
    const marker = markers[index] ?? '';
    // Numbers right-aligned, so the text of item 9 and item 10 starts in the same column.
    const padded = ' '.repeat(widest - terminalWidth(marker)) + marker;
    const body = item.blocks.flatMap((itemBlock) => renderBlock(itemBlock, inner));
    return prefixed(body, span(padded), span(indented ? ' '.repeat(widest) : ''));
  });
}

function renderQuote(block: Extract<Block, { kind: 'quote' }>, context: Context): StyledLine[] {
  if (context.depth >= deepestIndent) return renderBlocks(block.blocks, nested(context, 0, 0));
  const body = renderBlocks(block.blocks, nested(context, 2, 0));
  return body.map((line) => (line.length === 0 ? [span(quoteBar, Style.dim)] : [span(`${quoteBar} `, Style.dim), ...line]));
}

function renderTable(block: Extract<Block, { kind: 'table' }>): StyledLine[] {
  const cell = (content: readonly Inline[]): string => showControls(flattenLine(plainInline(content)));
  const lines = layoutTable(
    block.header.map(cell),
    block.rows.map((row) => row.map(cell)),
    block.align,
    ' │ ',
    terminalWidth,
  );
  return lines.map((line, index) => [span(line, index === 0 ? Style.bold : index === 1 ? Style.dim : Style.none)]);
}

function renderBlock(block: Block, context: Context): StyledLine[] {
  switch (block.kind) {
    case 'paragraph':
      return wrapped(toLines(renderInline(block.content, Style.none)), context.width);
    case 'heading':
      return wrapped(toLines(renderInline(block.content, Style.bold)), context.width);
    case 'code':
      return block.text.split('\n').map((line) => (line.trim() === '' ? [] : [span(codeIndent), span(line, Style.dim)]));
    case 'list':
      return renderList(block, context);
    case 'quote':
      return renderQuote(block, context);
    case 'table':
      return renderTable(block);
    case 'rule':
      return [[span('─'.repeat(Math.min(widestRule, context.width ?? widestRule)), Style.dim)]];
  }
}

/** Blocks one blank line apart. */
function renderBlocks(blocks: readonly Block[], context: Context): StyledLine[] {
  const lines: StyledLine[] = [];
  for (const block of blocks) {
    const rendered = renderBlock(block, context);
    if (rendered.length === 0) continue;
    if (lines.length > 0) lines.push([]);
    for (const line of rendered) lines.push(line);
  }
  return lines;
}

function usableWidth(width: number | undefined): number | undefined {
  return width !== undefined && Number.isFinite(width) && width >= 1 ? Math.max(narrowest, Math.floor(width)) : undefined;
}

/** A line of the answer's own text that starts with ">" (an escaped \\>, a table cell) is moved off the prompt's column. */
function awayFromPrompt(line: StyledLine): StyledLine {
  return line[0]?.text.startsWith('>') === true ? [span(' '), ...line] : line;
}

/** The agent's Markdown as text for a terminal; never throws (input marked cannot parse is shown as typed). */
export function renderTerminalText(markdown: string, options: TerminalTextOptions): string {
  let lines: StyledLine[];
  try {
    lines = renderBlocks(parseMarkdown(markdown), { width: usableWidth(options.width), depth: 0, listDepth: 0 });
  } catch {
    // marked recurses once per nesting level: thousands of nested quotes or lists overflow the stack.
    lines = toLines([span(markdown)]);
  }
  return lines.map((line) => serializeLine(awayFromPrompt(trimLineEnd(line)), options.color)).join('\n');
}
