import type { Mark, MarkedText } from './split.js';

// Reads Discord Markdown rendered by discord-markdown.ts into text and code-fence marks: an opening fence line
// (with its language, inside a quote with its "> ") is reopened in the next part when a cut falls inside the
// block, and a closing fence is added to the part before. Discord counts every character, fences too.

const quotePrefix = '> ';

export function readDiscordMarkdown(markdown: string): MarkedText {
  const marks: Mark[] = [];
  let text = '';
  let openPrefix: string | undefined;
  let lineStart = 0;
  while (lineStart <= markdown.length) {
    const newline = markdown.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? markdown.length : newline;
    const line = markdown.slice(lineStart, lineEnd);
    const prefix = line.startsWith(quotePrefix) ? quotePrefix : '';
    const isFence = line.startsWith('```', prefix.length);
    if (isFence && openPrefix === undefined && newline !== -1) {
      const closer = `${prefix}\`\`\``;
      const raw = `${line}\n`;
      marks.push({ kind: 'open', at: text.length, raw, size: raw.length, closer: `\n${closer}`, closerAfterLineEnd: closer, closerSize: closer.length + 1 });
      openPrefix = prefix;
    } else if (isFence && openPrefix !== undefined) {
      marks.push({ kind: 'close', at: text.length, raw: line, size: line.length });
      openPrefix = undefined;
      if (newline !== -1) text += '\n';
    } else {
      text += newline === -1 ? line : `${line}\n`;
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  return { text, marks };
}
