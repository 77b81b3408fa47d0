import { marked } from 'marked';
import { htmlToPlainText } from './html.js';

/** Markdown → HTML (marked) → text, so emphasis marks, link syntax and table pipes do not pollute the index. */
export function markdownToPlainText(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true });
  return htmlToPlainText(html);
}
