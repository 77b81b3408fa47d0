import type { Language } from './types.js';

// "Follow the asker" (/settings language follow): which of the bot's two languages a question is written in. Thai
// letters make it Thai (a Thai sentence around English terms is Thai); Latin words with no Thai make it English;
// anything else (numbers, emoji, another script, a link alone) says nothing, and the space's default holds.

const scanned = 2_000;
const linkPattern = /\b(?:https?:\/\/|www\.)\S{1,2000}/gi;

export function askerLanguage(text: string): Language | undefined {
  const words = text.slice(0, scanned).replace(linkPattern, ' ');
  let thai = 0;
  let latin = 0;
  for (let index = 0; index < words.length; index++) {
    const code = words.charCodeAt(index);
    if (code >= 0x0e01 && code <= 0x0e4f) thai++;
    else if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) latin++;
  }
  if (thai >= 2 && (thai >= 20 || thai >= 0.15 * (thai + latin))) return 'th';
  return thai === 0 && latin >= 2 ? 'en' : undefined;
}
