import { containsPhrase, phrasesIn, stripPhrases } from './phrase-match.js';
import { isThaiText } from './thai-text.js';
import type { SearchProvider, SearchRequest, TimeRange } from './types.js';

// Layer 1: the raw query, a simplified variant without instruction words, and a "what's new" variant;
// time words become the provider's time-range parameter instead of words in the query.

export type TimeIntent = 'today' | 'this-week' | 'this-month' | 'this-year' | 'latest';

export interface SearchVariant extends SearchRequest {
  kind: 'raw' | 'simplified' | 'feature';
}

export interface QueryPlan {
  raw: string;
  /** Instruction words, time words and polite particles removed. */
  simplified: string;
  thai: boolean;
  timeIntent?: TimeIntent;
  timeRange?: TimeRange;
  featureQuestion: boolean;
  variants: SearchVariant[];
}

export const maxQueryLength = 400;

const instructionPhrases = [
  'ช่วยค้นหาข้อมูล',
  'ช่วยหาข้อมูล',
  'ช่วยค้นหา',
  'ช่วยหา',
  'ค้นหาข้อมูล',
  'ค้นหาให้หน่อย',
  'หาให้หน่อย',
  'ค้นให้หน่อย',
  'ค้นหาให้',
  'หาให้',
  'ช่วยบอก',
  'บอกหน่อย',
  'ขอข้อมูล',
  'พร้อมแหล่งที่มา',
  'พร้อมแหล่งอ้างอิง',
  'พร้อมที่มา',
  'พร้อมลิงก์',
  'พร้อมลิ้งก์',
  'พร้อมลิ้งค์',
  'ขอลิงก์',
  'ขอลิ้งก์',
  'ขอลิ้งค์',
  'ขอแหล่งที่มา',
  'ขอแหล่งอ้างอิง',
  'จากอินเทอร์เน็ต',
  'ในอินเทอร์เน็ต',
  'ในเน็ต',
  'ในเว็บ',
  'ให้หน่อย',
  'with sources',
  'with source',
  'with links',
  'with references',
  'and cite sources',
  'cite sources',
  'include sources',
  'on the web',
  'on the internet',
  'online for me',
  'for me',
  'please',
];
const leadingInstructions = [
  'search the web for',
  'search the internet for',
  'search online for',
  'search for',
  'can you search',
  'could you search',
  'can you find',
  'could you find',
  'can you tell me',
  'could you tell me',
  'tell me',
  'look up',
  'find me',
  'find out',
  'ค้นหา',
];
const trailingParticles = ['ครับ', 'ค่ะ', 'คะ', 'นะ', 'จ้า', 'จ้ะ', 'หน่อย', 'ด้วย', 'ทีครับ', 'ทีค่ะ'];

// Narrowest first: the first intent found wins.
const timeWords: { intent: TimeIntent; range: TimeRange; phrases: string[] }[] = [
  { intent: 'today', range: 'day', phrases: ['วันนี้', 'today', 'tonight'] },
  { intent: 'this-week', range: 'week', phrases: ['สัปดาห์นี้', 'อาทิตย์นี้', 'this week', 'past week'] },
  { intent: 'this-month', range: 'month', phrases: ['เดือนนี้', 'this month', 'past month'] },
  { intent: 'this-year', range: 'year', phrases: ['ปีนี้', 'this year', 'past year'] },
  { intent: 'latest', range: 'year', phrases: ['ล่าสุด', 'the latest', 'latest', 'the newest', 'newest', 'the most recent', 'most recent'] },
];

const featurePhrases = [
  'มีอะไรใหม่',
  'อะไรใหม่',
  'ฟีเจอร์ใหม่',
  'ฟีเจอร์',
  'ความสามารถใหม่',
  'เปลี่ยนแปลงอะไร',
  'มีอะไรเปลี่ยน',
  "what's new",
  'whats new',
  'what is new',
  'new features',
  'new feature',
  'changelog',
  'release notes',
  'changes in',
];

/** Official "what's new" documentation hosts for version questions (product word → host). */
const docsHosts: Record<string, string> = {
  python: 'docs.python.org',
  django: 'docs.djangoproject.com',
  node: 'nodejs.org',
  'node.js': 'nodejs.org',
  nodejs: 'nodejs.org',
  typescript: 'www.typescriptlang.org',
  postgresql: 'www.postgresql.org',
  postgres: 'www.postgresql.org',
};

function tidy(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

const leadingJunk = /[\s\p{P}]/u;
const trailingJunk = /[\s,;:]/;

/** Drops punctuation left at the start and separators left at the end once words are removed. */
function trimEdges(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && leadingJunk.test(text[start] ?? '')) start += 1;
  while (end > start && trailingJunk.test(text[end - 1] ?? '')) end -= 1;
  return text.slice(start, end);
}

function detectTime(query: string): { intent: TimeIntent; range: TimeRange } | undefined {
  for (const entry of timeWords) {
    if (containsPhrase(query, entry.phrases)) return { intent: entry.intent, range: entry.range };
  }
  return undefined;
}

/** Removes instruction words, time words and trailing particles; falls back to the raw text when nothing is left. */
export function simplifyQuery(query: string): string {
  let text = stripPhrases(query, instructionPhrases, 'anywhere');
  text = stripPhrases(text, leadingInstructions, 'start');
  text = stripPhrases(
    text,
    timeWords.flatMap((entry) => entry.phrases),
    'anywhere',
  );
  text = stripPhrases(text, trailingParticles, 'end');
  text = tidy(trimEdges(text));
  return text === '' ? tidy(query) : text;
}

/** "Python 3.13 มีอะไรใหม่" → "Python 3.13 what's new", plus the docs host when a known product has a version. */
function featureVariant(simplified: string, provider: SearchProvider): SearchVariant | undefined {
  const withoutFeatureWords = stripPhrases(tidy(stripPhrases(simplified, featurePhrases, 'anywhere')), ['in', 'for', 'of', 'about'], 'start');
  // Tech "what's new" searches work better in English: keep the Latin/number part when there is one.
  const latin = tidy((withoutFeatureWords.match(/[A-Za-z0-9][A-Za-z0-9.+#-]{0,40}/g) ?? []).join(' '));
  const subject = latin !== '' ? latin : withoutFeatureWords;
  if (subject === '') return undefined;
  const product = (latin.match(/^[a-z][a-z.]{0,20}/i)?.[0] ?? '').toLowerCase();
  const hasVersion = /\d/.test(latin);
  const host = hasVersion ? docsHosts[product] : undefined;
  const query = `${subject} what's new`;
  const thai = isThaiText(query);
  if (!host) return { kind: 'feature', query, thai };
  // Tavily ignores `site:` in the query: it takes the host as a request field instead.
  if (provider.siteRestriction === 'include-domains') return { kind: 'feature', query, thai, includeDomains: [host] };
  return { kind: 'feature', query: `${query} site:${host}`, thai };
}

function variantKey(variant: SearchVariant): string {
  return [variant.query.toLowerCase(), variant.timeRange ?? '', (variant.includeDomains ?? []).join(',')].join('|');
}

/** Plans the variants for one model-supplied query (at most three, duplicates removed). */
export function planQuery(query: string, provider: SearchProvider): QueryPlan {
  const raw = tidy(query).slice(0, maxQueryLength);
  const thai = isThaiText(raw);
  const time = detectTime(raw);
  const simplified = simplifyQuery(raw);
  const featureQuestion = phrasesIn(raw, featurePhrases).length > 0;
  const candidates: SearchVariant[] = [
    { kind: 'raw', query: raw, thai },
    { kind: 'simplified', query: simplified, thai: isThaiText(simplified), ...(time ? { timeRange: time.range } : {}) },
  ];
  if (featureQuestion) {
    const feature = featureVariant(simplified, provider);
    if (feature) candidates.push(time ? { ...feature, timeRange: time.range } : feature);
  }
  const seen = new Set<string>();
  const variants = candidates.filter((variant) => {
    const key = variantKey(variant);
    if (seen.has(key) || variant.query === '') return false;
    seen.add(key);
    return true;
  });
  return {
    raw,
    simplified,
    thai,
    featureQuestion,
    variants,
    ...(time ? { timeIntent: time.intent, timeRange: time.range } : {}),
  };
}
