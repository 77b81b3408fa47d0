import { hostKey } from '../../../src/shared/url-normalize.js';

// Adult content is never shown: a domain list plus Thai and English words in the URL, title or snippet.

const adultDomains = new Set([
  'pornhub.com',
  'xvideos.com',
  'xnxx.com',
  'xhamster.com',
  'redtube.com',
  'youporn.com',
  'onlyfans.com',
  'chaturbate.com',
  'spankbang.com',
  'tube8.com',
  'brazzers.com',
  'stripchat.com',
  'cam4.com',
  'livejasmin.com',
  'eporner.com',
  'hentaihaven.xxx',
  'rule34.xxx',
  'nhentai.net',
  'javlibrary.com',
  'missav.com',
]);
const adultTopLevel = /\.(?:xxx|porn|sex|adult)$/i;
const adultWordsEnglish = /\b(?:porn|porno|pornhub|nsfw|hentai|onlyfans|camgirls?|sex ?tapes?|erotica|milf)\b/i;
// "โป๊" but not "โป๊ะ" (a pier); the other words are unambiguous.
const adultWordsThai = /โป๊(?!ะ)|หนังเอ็กซ์|คลิปหลุด|หนังxxx|เย็ด|หนังผู้ใหญ่|เว็บผู้ใหญ่|ภาพเปลือย|คลิปเสียว|นมโต/;

function domainOf(url: string): string {
  try {
    return hostKey(new URL(url).hostname);
  } catch {
    return '';
  }
}

function isAdultDomain(host: string): boolean {
  if (adultTopLevel.test(host)) return true;
  // Sub-domains of a listed domain count too (th.pornhub.com).
  let suffix = host;
  while (suffix.includes('.')) {
    if (adultDomains.has(suffix)) return true;
    suffix = suffix.slice(suffix.indexOf('.') + 1);
  }
  return false;
}

export function isAdultContent(url: string, title: string, snippet: string): boolean {
  if (isAdultDomain(domainOf(url))) return true;
  const text = `${url} ${title} ${snippet}`.slice(0, 4000);
  return adultWordsEnglish.test(text) || adultWordsThai.test(text);
}
