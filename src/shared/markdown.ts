/**
 * Backslash-escapes inline Markdown syntax in names and titles that users chose, so they render as typed
 * (they are always placed mid-line, where `#` and `|` mean nothing). `://` and `www.` are escaped too: a URL in a
 * file name must not become a link (GFM autolinks bare URLs).
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\`*_[\]<>~]/g, '\\$&')
    .replace(/:\/\//g, '\\://')
    .replace(/\bwww\./gi, (found) => `${found.slice(0, 3)}\\.`);
}

/** A one-line preview of a passage: whitespace collapsed, at most `length` characters. */
export function preview(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const characters = Array.from(flat);
  return characters.length <= length ? flat : `${characters.slice(0, length).join('').trimEnd()}…`;
}
