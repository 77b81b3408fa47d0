// A strict stand-in for Telegram's HTML parse mode (Bot API "Formatting options"), stricter than Telegram where
// Telegram is vague: only its tags, properly nested and closed; attributes only href on <a> and
// class="language-…" on a <code> directly inside <pre>; only &lt; &gt; &amp; &quot; and numeric entities; no raw
// < or >; code and pre hold no other tag (but pre > code); code and pre never inside b/i/s/u/a/spoiler; no
// nested a, pre or blockquote. Returns the visible text, or throws with what was wrong and where.

const formattingTags = new Set(['b', 'strong', 'i', 'em', 'u', 'ins', 's', 'strike', 'del', 'tg-spoiler']);
const allTags = new Set([...formattingTags, 'a', 'code', 'pre', 'blockquote']);
const namedEntities: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"' };

interface Open {
  name: string;
  /** Visible length when it opened: pre > code must start the pre. */
  at: number;
}

function fail(reason: string, index: number, html: string): never {
  throw new Error(`${reason} at ${index}: ${JSON.stringify(html.slice(Math.max(0, index - 20), index + 40))}`);
}

function checkOpen(name: string, attributes: string, stack: readonly Open[], visibleLength: number, index: number, html: string): void {
  if (!allTags.has(name)) fail(`unsupported tag <${name}>`, index, html);
  const parent = stack.at(-1);
  if (parent?.name === 'code') fail('a tag inside <code>', index, html);
  if (parent?.name === 'pre' && !(name === 'code' && parent.at === visibleLength)) fail('a tag inside <pre> other than a leading <code>', index, html);
  const names = stack.map((open) => open.name);
  if ((name === 'code' && parent?.name !== 'pre') || name === 'pre') {
    if (names.some((other) => formattingTags.has(other) || other === 'a')) fail(`<${name}> inside a formatting entity`, index, html);
  }
  if (name !== 'code' && names.includes(name) && (name === 'a' || name === 'pre' || name === 'blockquote')) fail(`nested <${name}>`, index, html);
  if (name === 'a') {
    if (!/^ href="[^"<>]{1,2000}"$/.test(attributes)) fail('<a> without exactly one href', index, html);
    const href = decodeEntities(attributes.slice(7, -1), index, html);
    if (!/^(https?:\/\/|mailto:|tg:\/\/)\S{1,2000}$/i.test(href)) fail(`unsupported link ${href}`, index, html);
  } else if (name === 'code' && attributes !== '') {
    if (parent?.name !== 'pre' || !/^ class="language-[\w+#.-]{1,32}"$/.test(attributes)) fail('class on <code> outside pre', index, html);
  } else if (attributes !== '') fail(`attributes on <${name}>`, index, html);
}

function decodeEntities(text: string, index: number, html: string): string {
  let decoded = '';
  for (let at = 0; at < text.length; at += 1) {
    if (text[at] !== '&') {
      decoded += text[at] ?? '';
      continue;
    }
    const end = text.indexOf(';', at);
    const entity = end === -1 ? '' : text.slice(at, end + 1);
    const named = namedEntities[entity];
    if (named !== undefined) decoded += named;
    else if (/^&#\d{1,7};$/.test(entity)) decoded += String.fromCodePoint(Number(entity.slice(2, -1)));
    else if (/^&#x[0-9a-f]{1,6};$/i.test(entity)) decoded += String.fromCodePoint(Number.parseInt(entity.slice(3, -1), 16));
    else fail('a bare & or an unsupported entity', index + at, html);
    at = end;
  }
  return decoded;
}

/** The text Telegram would show for `html`, after checking it as above. */
export function telegramVisibleText(html: string): string {
  const stack: Open[] = [];
  let visible = '';
  let index = 0;
  while (index < html.length) {
    const character = html[index];
    if (character === '>') fail('a raw >', index, html);
    if (character !== '<') {
      const next = html.indexOf('<', index);
      const end = next === -1 ? html.length : next;
      const chunk = html.slice(index, end);
      if (chunk.includes('>')) fail('a raw >', index + chunk.indexOf('>'), html);
      visible += decodeEntities(chunk, index, html);
      index = end;
      continue;
    }
    const close = html.indexOf('>', index);
    if (close === -1) fail('an unclosed tag', index, html);
    const tag = html.slice(index + 1, close);
    const match = /^(\/?)([a-z-]{1,12})((?: [^<>]{0,2100})?)$/.exec(tag);
    if (!match) fail('a malformed tag or a raw <', index, html);
    const [, slash = '', name = '', attributes = ''] = match;
    if (slash === '/') {
      if (attributes !== '') fail('attributes on a closing tag', index, html);
      const open = stack.pop();
      if (open?.name !== name) fail(`</${name}> closes <${open?.name ?? 'nothing'}>`, index, html);
    } else {
      checkOpen(name, attributes, stack, visible.length, index, html);
      stack.push({ name, at: visible.length });
    }
    index = close + 1;
  }
  if (stack.length > 0) fail(`unclosed <${stack.map((open) => open.name).join('>, <')}>`, html.length, html);
  return visible;
}
