import type { Inline } from './document.js';

// Inline content as plain text: no markers, links as "text (url)". LINE's text, table cells on every platform.

/** A one-line cell or heading text: breaks and runs of whitespace become one space. */
export function flattenLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The label says nothing the address does not: an autolink, or a mail address. */
export function isBareLink(label: string, href: string): boolean {
  return label === '' || label === href || `mailto:${label}` === href;
}

export function plainInline(content: readonly Inline[]): string {
  let text = '';
  for (const node of content) {
    switch (node.kind) {
      case 'text':
      case 'code':
        text += node.text;
        break;
      case 'break':
        text += '\n';
        break;
      case 'strong':
      case 'emphasis':
      case 'strike':
        text += plainInline(node.children);
        break;
      case 'link': {
        const label = plainInline(node.children);
        text += isBareLink(label, node.href) ? node.href : `${label} (${node.href})`;
        break;
      }
    }
  }
  return text;
}
