import type { Mark, MarkedText } from '../format/split.js';

// Reads Discord Markdown rendered by render-markdown.ts into text and marks: an opening fence line (with its
// language, inside a quote with its "> ") is reopened in the next part when a cut falls inside the block, and a
// closing fence is added to the part before; the same for bold, italic and strikethrough cut inside a long
// paragraph. The renderer escapes every literal `*` and `~` with a backslash, so an unescaped one outside code is
// markup. Discord counts every character, markers too.

type InlineMarker = '**' | '*' | '~~';

/** The markers of one line outside fences: text with open/close marks for `**`, `*` and `~~`; code spans as text. */
function readInline(line: string, text: { value: string }, marks: Mark[], open: InlineMarker[]): void {
  let index = 0;
  const push = (chunk: string): void => void (text.value += chunk);
  while (index < line.length) {
    const character = line[index];
    if (character === '\\' && index + 1 < line.length) {
      push(line.slice(index, index + 2));
      index += 2;
      continue;
    }
    if (character === '`') {
      let run = 1;
      while (line[index + run] === '`') run += 1;
      const fence = '`'.repeat(run);
      const end = line.indexOf(fence, index + run);
      const stop = end === -1 ? line.length : end + run;
      push(line.slice(index, stop));
      index = stop;
      continue;
    }
    const marker: InlineMarker | undefined =
      character === '~' && line[index + 1] === '~' ? '~~' : character === '*' ? (open.at(-1) === '*' || line[index + 1] !== '*' ? '*' : '**') : undefined;
    if (!marker) {
      push(character ?? '');
      index += 1;
      continue;
    }
    if (open.at(-1) === marker) {
      open.pop();
      marks.push({ kind: 'close', at: text.value.length, raw: marker, size: marker.length });
    } else {
      open.push(marker);
      marks.push({
        kind: 'open',
        at: text.value.length,
        raw: marker,
        size: marker.length,
        closer: marker,
        closerAfterLineEnd: marker,
        closerSize: marker.length,
      });
    }
    index += marker.length;
  }
}

const quotePrefix = '> ';

export function readDiscordMarkdown(markdown: string): MarkedText {
  const marks: Mark[] = [];
  const text = { value: '' };
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
      marks.push({
        kind: 'open',
        at: text.value.length,
        raw,
        size: raw.length,
        closer: `\n${closer}`,
        closerAfterLineEnd: closer,
        closerSize: closer.length + 1,
      });
      openPrefix = prefix;
    } else if (isFence && openPrefix !== undefined) {
      marks.push({ kind: 'close', at: text.value.length, raw: line, size: line.length });
      openPrefix = undefined;
      if (newline !== -1) text.value += '\n';
    } else if (openPrefix !== undefined) {
      text.value += newline === -1 ? line : `${line}\n`;
    } else {
      readLine(line, text, marks);
      if (newline !== -1) text.value += '\n';
    }
    if (newline === -1) break;
    lineStart = newline + 1;
  }
  return { text: text.value, marks };
}

/** A line's inline marks, kept only when they pair up within the line (else the line counts as plain text). */
function readLine(line: string, text: { value: string }, marks: Mark[]): void {
  const before = { text: text.value, marks: marks.length };
  const open: InlineMarker[] = [];
  readInline(line, text, marks, open);
  if (open.length === 0) return;
  text.value = before.text + line;
  marks.length = before.marks;
}
