import type { Block } from '../format/document.js';
import { itemMarker, prefixLines, quoteLines } from '../format/list-layout.js';
import { flattenLine, plainInline } from '../format/plain-inline.js';
import { joinRenderedBlocks, keepText, readPlain, type PlatformRenderer } from '../format/renderer.js';
import { layoutTable } from '../format/table-layout.js';

// LINE shows plain text only (URLs link themselves): no markers, headings as 【…】 lines, lists with bullets,
// code as is, links as "text (url)", tables as aligned lines.

const rule = '──────────';

function renderBlock(block: Block, depth: number): string {
  switch (block.kind) {
    case 'paragraph':
      return plainInline(block.content);
    case 'heading':
      return `【${flattenLine(plainInline(block.content))}】`;
    case 'code':
      return block.text;
    case 'list':
      return block.items
        .map((item, index) => {
          const marker = itemMarker(block.ordered, block.start + index, depth, item);
          const body = item.blocks.map((inner) => renderBlock(inner, depth + 1)).join('\n');
          return prefixLines(body, marker, ' '.repeat(marker.length));
        })
        .join('\n');
    case 'quote':
      return quoteLines(renderBlocks(block.blocks, depth), '┃ ');
    case 'table': {
      const cell = (content: Parameters<typeof plainInline>[0]): string => flattenLine(plainInline(content));
      return layoutTable(
        block.header.map(cell),
        block.rows.map((row) => row.map(cell)),
        block.align,
        ' │ ',
      ).join('\n');
    }
    case 'rule':
      return rule;
  }
}

function renderBlocks(blocks: readonly Block[], depth: number): string {
  return joinRenderedBlocks(blocks, depth, renderBlock);
}

/** The whole answer as LINE plain text, before splitting. */
export function renderLineText(blocks: readonly Block[]): string {
  return renderBlocks(blocks, 0);
}

export const lineRenderer: PlatformRenderer = { render: renderLineText, read: readPlain, serialize: keepText };
