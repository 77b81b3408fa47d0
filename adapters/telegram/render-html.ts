import type { Block, Inline } from '../format/document.js';
import { itemMarker, prefixLines } from '../format/list-layout.js';
import { flattenLine, isBareLink, plainInline } from '../format/plain-inline.js';
import { layoutTable } from '../format/table-layout.js';
import { joinRenderedBlocks } from '../format/renderer.js';

// Telegram's HTML parse mode: b, i, s, code, pre (with <code class="language-x">), a href, blockquote. Every
// text is escaped (& < > everywhere, " as well in attributes), so the model's raw HTML shows as typed. Telegram
// has no headings, lists or tables: headings → bold lines, lists → bullets, tables → aligned <pre>. Entities are
// nested only where Telegram takes it: code never inside another entity, pre and blockquote never nested.

const rule = '──────────';
const linkSchemes = ['http:', 'https:', 'mailto:', 'tg:'];

export function escapeHtml(text: string): string {
  return text.replace(/[&<>]/g, (character) => (character === '&' ? '&amp;' : character === '<' ? '&lt;' : '&gt;'));
}

function escapeAttribute(text: string): string {
  return escapeHtml(text).replace(/"/g, '&quot;');
}

function isLinkable(href: string): boolean {
  const colon = href.indexOf(':');
  return colon > 0 && linkSchemes.includes(href.slice(0, colon + 1).toLowerCase());
}

/** A fence's language as a class name Telegram accepts, or '' when it is not a plain name. */
function languageClass(language: string): string {
  return /^[\w+#.-]{1,32}$/.test(language) ? language : '';
}

interface InlineContext {
  /** Inside b/i/s/a: code stays plain text, and the same tag is not opened twice. */
  open: ReadonlySet<string>;
}

function wrap(tag: string, content: readonly Inline[], context: InlineContext): string {
  if (context.open.has(tag)) return renderInline(content, context);
  return `<${tag}>${renderInline(content, { open: new Set([...context.open, tag]) })}</${tag}>`;
}

function renderInline(content: readonly Inline[], context: InlineContext): string {
  let html = '';
  for (const node of content) {
    switch (node.kind) {
      case 'text':
        html += escapeHtml(node.text);
        break;
      case 'break':
        html += '\n';
        break;
      case 'code':
        html += context.open.size === 0 ? `<code>${escapeHtml(node.text)}</code>` : escapeHtml(node.text);
        break;
      case 'strong':
        html += wrap('b', node.children, context);
        break;
      case 'emphasis':
        html += wrap('i', node.children, context);
        break;
      case 'strike':
        html += wrap('s', node.children, context);
        break;
      case 'link': {
        const label = plainInline(node.children);
        if (!isLinkable(node.href) || context.open.has('a')) {
          html += escapeHtml(isBareLink(label, node.href) ? node.href : `${label} (${node.href})`);
        } else {
          const inner = isBareLink(label, node.href) ? escapeHtml(label || node.href) : renderInline(node.children, { open: new Set([...context.open, 'a']) });
          html += `<a href="${escapeAttribute(node.href)}">${inner}</a>`;
        }
        break;
      }
    }
  }
  return html;
}

const top: InlineContext = { open: new Set() };

interface BlockContext {
  depth: number;
  inQuote: boolean;
}

function renderBlock(block: Block, context: BlockContext): string {
  switch (block.kind) {
    case 'paragraph':
      return renderInline(block.content, top);
    case 'heading':
      return `<b>${renderInline(block.content, { open: new Set(['b']) })}</b>`;
    case 'code': {
      if (context.inQuote) return escapeHtml(block.text);
      const language = languageClass(block.language);
      const code = escapeHtml(block.text);
      return language === '' ? `<pre>${code}</pre>` : `<pre><code class="language-${language}">${code}</code></pre>`;
    }
    case 'list':
      return block.items
        .map((item, index) => {
          const marker = itemMarker(block.ordered, block.start + index, context.depth, item);
          const body = item.blocks.map((inner) => renderBlock(inner, { ...context, depth: context.depth + 1 })).join('\n');
          return prefixLines(body, marker, ' '.repeat(marker.length));
        })
        .join('\n');
    case 'quote': {
      const inner = renderBlocks(block.blocks, { ...context, inQuote: true });
      return context.inQuote ? inner : `<blockquote>${inner}</blockquote>`;
    }
    case 'table': {
      const cell = (content: readonly Inline[]): string => flattenLine(plainInline(content));
      const lines = layoutTable(
        block.header.map(cell),
        block.rows.map((row) => row.map(cell)),
        block.align,
        '  ',
      );
      return context.inQuote ? escapeHtml(lines.join('\n')) : `<pre>${escapeHtml(lines.join('\n'))}</pre>`;
    }
    case 'rule':
      return rule;
  }
}

function renderBlocks(blocks: readonly Block[], context: BlockContext): string {
  return joinRenderedBlocks(blocks, context, renderBlock);
}

/** The whole answer as Telegram HTML (parse_mode "HTML"), before splitting. */
export function renderTelegramHtml(blocks: readonly Block[]): string {
  return renderBlocks(blocks, { depth: 0, inQuote: false });
}
