import { compile } from 'html-to-text';

// Plain text from HTML fragments: Brave's decorated descriptions (`<strong>`, `&amp;`, `&#x27;`) and HTML
// error pages. Compiled once: per-call conversion is ~15× slower.

const headings = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } }));
const htmlToText = compile({
  wordwrap: false,
  selectors: [{ selector: 'a', options: { ignoreHref: true } }, { selector: 'img', format: 'skip' }, ...headings],
});

export function decodeHtml(text: string): string {
  return htmlToText(text).replace(/\s+/g, ' ').trim();
}
