import type { Language } from './types.js';

/** A user-facing text in both languages; Thai is the default. */
export interface Localized {
  th: string;
  en: string;
}

export function pick(text: Localized, language: Language): string {
  return text[language];
}

/** Replaces `{name}` placeholders; unknown names stay as they are. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w{1,40})\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export function say(text: Localized, language: Language, values: Record<string, string | number> = {}): string {
  return fill(pick(text, language), values);
}
