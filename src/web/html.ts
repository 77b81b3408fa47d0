// The admin pages are written as `html` templates: every value put into one is escaped, unless it is itself `Html`
// (another template's output). Document names, group names and messages are user input; none reaches a page raw.

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlValue = Html | string | number | boolean | null | undefined | readonly HtmlValue[];

const entities: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Text safe in an element and in a quoted attribute. */
export function escapeHtml(text: string): string {
  let escaped = '';
  for (const character of text) escaped += entities[character] ?? character;
  return escaped;
}

function render(value: HtmlValue): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map((item: HtmlValue) => render(item)).join('');
  if (value === null || value === undefined || value === false || value === true) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  let text = strings[0] ?? '';
  values.forEach((value, index) => (text += render(value) + (strings[index + 1] ?? '')));
  return new Html(text);
}
