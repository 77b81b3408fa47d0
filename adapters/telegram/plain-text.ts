// Telegram HTML → the plain text a user would have read, for resending a part Telegram refused to parse ("can't
// parse entities"): tags out, entities decoded, link targets kept after their text. A hand scanner, not regexes
// over markup: the input is by definition malformed, and a stray `<` must stay as text.

const longestTag = 1000;
const tagName = /^\/?([a-zA-Z][a-zA-Z0-9-]{0,30})(?=[\s>/]|$)/;
const entity = /&(?:lt|gt|amp|quot|#\d{1,7}|#x[0-9a-fA-F]{1,6});/g;
const named: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"' };

function decodeEntity(found: string): string {
  const known = named[found];
  if (known !== undefined) return known;
  const hex = found.startsWith('&#x');
  const code = Number.parseInt(found.slice(hex ? 3 : 2, -1), hex ? 16 : 10);
  return code <= 0x10ffff ? String.fromCodePoint(code) : found;
}

export function decodeHtmlEntities(text: string): string {
  return text.replace(entity, decodeEntity);
}

function hrefOf(tagBody: string): string | undefined {
  const start = tagBody.indexOf('href="');
  if (start < 0) return undefined;
  const end = tagBody.indexOf('"', start + 6);
  return end < 0 ? undefined : decodeHtmlEntities(tagBody.slice(start + 6, end));
}

export function htmlToPlainText(html: string): string {
  let output = '';
  const openLinks: { href: string | undefined; textStart: number }[] = [];
  let cursor = 0;
  while (cursor < html.length) {
    const open = html.indexOf('<', cursor);
    if (open < 0) break;
    const close = html.indexOf('>', open + 1);
    const body = close < 0 || close - open > longestTag ? undefined : html.slice(open + 1, close);
    const name = body === undefined ? undefined : tagName.exec(body)?.[1]?.toLowerCase();
    output += decodeHtmlEntities(html.slice(cursor, open));
    if (body === undefined || name === undefined) {
      // Not a tag: a literal "<" the renderer failed to escape.
      output += '<';
      cursor = open + 1;
      continue;
    }
    if (name === 'a' && !body.startsWith('/')) openLinks.push({ href: hrefOf(body), textStart: output.length });
    if (name === 'a' && body.startsWith('/')) {
      const link = openLinks.pop();
      const linkText = link ? output.slice(link.textStart) : '';
      if (link?.href && link.href !== linkText) output += ` (${link.href})`;
    }
    cursor = close + 1;
  }
  return output + decodeHtmlEntities(html.slice(cursor));
}
