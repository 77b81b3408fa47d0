import type { Block } from './document.js';
import type { MarkedText } from './split.js';

// What an adapter's renderer (adapters/<platform>/render.ts) hands the neutral pipeline of this folder: the parsed
// answer in its markup, that markup read back as text plus marks for the splitter, and how plain text is written
// in it (a note added after splitting must be escaped like the rest).

export interface PlatformRenderer {
  render(blocks: readonly Block[]): string;
  read(rendered: string): MarkedText;
  serialize(text: string): string;
}

/** A markup with no marks to reopen across a split (plain text). */
export function readPlain(rendered: string): MarkedText {
  return { text: rendered, marks: [] };
}

export function keepText(text: string): string {
  return text;
}

/** Blocks rendered one by one, the empty ones dropped, a blank line between the rest. */
export function joinRenderedBlocks<Context>(blocks: readonly Block[], context: Context, renderBlock: (block: Block, context: Context) => string): string {
  return blocks
    .map((block) => renderBlock(block, context))
    .filter((text) => text !== '')
    .join('\n\n');
}
