import type { Block, Inline } from '../format/document.js';
import { itemMarker, prefixLines, quoteLines } from '../format/list-layout.js';
import { flattenLine, isBareLink, plainInline } from '../format/plain-inline.js';
import { layoutTable } from '../format/table-layout.js';
import { joinRenderedBlocks } from '../format/renderer.js';

// Discord's Markdown subset, nearly as the model wrote it: #–### headings stay, deeper ones become bold lines,
// tables (which Discord does not draw) become aligned code blocks, quotes are one level deep. Literal text is
// backslash-escaped (Discord drops the backslash before any punctuation), so a `*` or a `<@id>` the model typed
// shows as typed; URLs are not escaped, since Discord links them before it reads escapes.

const rule = '──────────';

export function escapeDiscord(text: string): string {
  // Inline markers anywhere; block markers (#, >, -, +, "1.") only where a line starts.
  return text
    .replace(/[\\`*_~|[\]<>]/g, '\\$&')
    .replace(/(^|\n)([#>+-])/g, '$1\\$2')
    .replace(/(^|\n)(\d{1,9})\./g, '$1$2\\.');
}

/** An address Discord reads inside `[text](…)` and as a bare link: the characters it would stop at, encoded. */
function safeUrl(href: string): string {
  return href.replace(/[\s()<>*~]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

function codeSpan(text: string): string {
  const flat = text.replace(/\n/g, ' ');
  if (!flat.includes('`')) return `\`${flat}\``;
  return `\`\` ${flat.replace(/``+/g, '`\u200b`')} \`\``;
}

function renderInline(content: readonly Inline[]): string {
  let markdown = '';
  for (const node of content) {
    switch (node.kind) {
      case 'text':
        markdown += escapeDiscord(node.text);
        break;
      case 'break':
        markdown += '\n';
        break;
      case 'code':
        markdown += codeSpan(node.text);
        break;
      case 'strong':
        markdown += `**${renderInline(node.children)}**`;
        break;
      case 'emphasis':
        markdown += `*${renderInline(node.children)}*`;
        break;
      case 'strike':
        markdown += `~~${renderInline(node.children)}~~`;
        break;
      case 'link': {
        const label = plainInline(node.children);
        markdown += isBareLink(label, node.href) ? safeUrl(node.href) : `[${renderInline(node.children)}](${safeUrl(node.href)})`;
        break;
      }
    }
  }
  return markdown;
}

function fence(language: string, text: string): string {
  // A line of the code that is itself a fence would end the block early: a zero-width space keeps it code.
  const body = text.replace(/^```/gm, '\u200b```');
  return `\`\`\`${/^[\w+#.-]{1,32}$/.test(language) ? language : ''}\n${body}\n\`\`\``;
}

function renderBlock(block: Block, depth: number): string {
  switch (block.kind) {
    case 'paragraph':
      return renderInline(block.content);
    case 'heading': {
      const text = renderInline(block.content).replace(/\n/g, ' ');
      return block.depth <= 3 ? `${'#'.repeat(block.depth)} ${text}` : `**${text}**`;
    }
    case 'code':
      return fence(block.language, block.text);
    case 'list':
      return block.items
        .map((item, index) => {
          const marker = itemMarker(block.ordered, block.start + index, depth, item);
          const bullet = block.ordered || item.checked !== undefined ? marker : '- ';
          const body = item.blocks.map((inner) => renderBlock(inner, depth + 1)).join('\n');
          return prefixLines(body, bullet, ' '.repeat(bullet.length));
        })
        .join('\n');
    case 'quote':
      return quoteLines(renderBlocks(block.blocks, depth).replace(/^> ?/gm, ''), '> ');
    case 'table': {
      const cell = (content: readonly Inline[]): string => flattenLine(plainInline(content));
      return fence(
        '',
        layoutTable(
          block.header.map(cell),
          block.rows.map((row) => row.map(cell)),
          block.align,
          '  ',
        ).join('\n'),
      );
    }
    case 'rule':
      return rule;
  }
}

function renderBlocks(blocks: readonly Block[], depth: number): string {
  return joinRenderedBlocks(blocks, depth, renderBlock);
}

/** The whole answer as Discord Markdown, before splitting. */
export function renderDiscordMarkdown(blocks: readonly Block[]): string {
  return renderBlocks(blocks, 0);
}
