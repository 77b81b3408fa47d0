// Escape sequences inside serialized JSON (`\n`, `\"`, `\\`, `\u00e9`), for the log redactor.

const escapeSequence = /\\(?:u[0-9a-fA-F]{4}|[\s\S])/g;

/** The line with every escape sequence replaced by as many spaces: same offsets, and no token glued to an escape. */
export function maskJsonEscapes(line: string): string {
  return line.replace(escapeSequence, (sequence) => (sequence.length === 2 ? '  ' : '      '));
}

/** True when the backslash at `index` starts an escape sequence (an even number of backslashes precede it). */
function startsEscape(line: string, index: number): boolean {
  let before = 0;
  while (index - before - 1 >= 0 && line[index - before - 1] === '\\') before++;
  return before % 2 === 0;
}

/** The escape sequence that `position` falls strictly inside (after its first character), if any. */
export function escapeAround(line: string, position: number): { start: number; end: number } | undefined {
  // A sequence is at most 6 characters long (`\uXXXX`), so its backslash is at most 5 characters back.
  for (let back = 1; back <= 5 && position - back >= 0; back++) {
    const start = position - back;
    if (line[start] !== '\\') continue;
    if (!startsEscape(line, start)) return undefined;
    const end = start + (line[start + 1] === 'u' ? 6 : 2);
    return end > position ? { start, end } : undefined;
  }
  return undefined;
}
