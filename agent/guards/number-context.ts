// The words around a figure that change what it means: scale words, percent and money markers, months, year
// and list prefixes (Thai and English). Lookups run on short, bounded slices next to the figure.

export interface Suffix {
  /** Characters the suffix takes after the figure (spaces included). */
  length: number;
  scale: number;
  percent: boolean;
  money: boolean;
  /** `น.` / `นาฬิกา` after `14.30`. */
  clock: boolean;
  month: boolean;
}

// Longest first, so that ล้านล้าน wins over ล้าน and พันล้าน over พัน.
const thaiScales: [string, number][] = [
  ['ล้านล้าน', 1e12], ['แสนล้าน', 1e11], ['หมื่นล้าน', 1e10], ['พันล้าน', 1e9], ['ล้าน', 1e6], ['แสน', 1e5], ['หมื่น', 1e4], ['พัน', 1e3],
];
const englishScales: [string, number][] = [['trillion', 1e12], ['billion', 1e9], ['million', 1e6], ['thousand', 1e3], ['bn', 1e9]];
const attachedScales: [string, number][] = [['k', 1e3], ['K', 1e3], ['M', 1e6], ['B', 1e9]];
const percentWords = ['%', 'เปอร์เซ็นต์', 'เปอร์เซนต์', 'percent', 'per cent'];
const moneyWords = ['บาท', 'baht', 'ดอลลาร์', 'dollar', 'usd', 'thb', 'ยูโร', 'euro', 'เยน', 'yen', 'ปอนด์', 'หยวน'];
export const thaiMonths = [
  'มกราคม', 'กุมภาพันธ์', 'มีนาคม', 'เมษายน', 'พฤษภาคม', 'มิถุนายน', 'กรกฎาคม', 'สิงหาคม', 'กันยายน', 'ตุลาคม', 'พฤศจิกายน', 'ธันวาคม',
];
export const thaiMonthAbbreviations = ['ม.ค.', 'ก.พ.', 'มี.ค.', 'เม.ย.', 'พ.ค.', 'มิ.ย.', 'ก.ค.', 'ส.ค.', 'ก.ย.', 'ต.ค.', 'พ.ย.', 'ธ.ค.'];
export const englishMonths = [
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
];

const latinLetter = /[A-Za-z]/;

function skipSpaces(text: string, from: number, max = 2): number {
  let index = from;
  while (index < text.length && index - from < max && (text[index] === ' ' || text[index] === '\u00a0')) index++;
  return index;
}

function startsWithAny(text: string, at: number, words: readonly string[], caseless = false): string | undefined {
  const slice = text.slice(at, at + 16);
  const probe = caseless ? slice.toLowerCase() : slice;
  return words.find((word) => probe.startsWith(word));
}

function isMonthAt(text: string, at: number): boolean {
  if (startsWithAny(text, at, thaiMonths) || startsWithAny(text, at, thaiMonthAbbreviations)) return true;
  const word = /^[A-Za-z]{3,9}/.exec(text.slice(at, at + 10))?.[0].toLowerCase();
  return word !== undefined && englishMonths.some((month) => word === month || word === month.slice(0, 3));
}

/** What follows the figure ending at `end`. */
export function readSuffix(text: string, end: number): Suffix {
  const suffix: Suffix = { length: 0, scale: 1, percent: false, money: false, clock: false, month: false };
  const attached = attachedScales.find(([word]) => text[end] === word);
  if (attached && !/[A-Za-z]/.test(text[end + 1] ?? '')) {
    suffix.scale = attached[1];
    suffix.length = 1;
  }
  let at = skipSpaces(text, end + suffix.length);
  const thai = thaiScales.find(([word]) => text.startsWith(word, at) && !text.startsWith(`${word}ธ`, at)); // พันธุ์ is a breed
  const english = englishScales.find(([word]) => text.slice(at, at + word.length).toLowerCase() === word && !latinLetter.test(text[at + word.length] ?? ''));
  const scale = suffix.scale === 1 ? (thai ?? english) : undefined;
  if (scale) {
    suffix.scale = scale[1];
    at += scale[0].length;
    suffix.length = at - end;
    at = skipSpaces(text, at);
  }
  const percent = startsWithAny(text, at, percentWords, true);
  if (percent) {
    suffix.percent = true;
    suffix.length = at + percent.length - end;
  }
  suffix.money = startsWithAny(text, at, moneyWords, true) !== undefined;
  suffix.clock = text.startsWith('น.', at) || text.startsWith('นาฬิกา', at);
  suffix.month = isMonthAt(text, at);
  return suffix;
}

export interface Prefix {
  /** Characters the prefix takes before the figure, for a currency symbol. */
  symbolLength: number;
  money: boolean;
  percent: boolean;
  /** พ.ศ. / ค.ศ. / ปี: a two-digit figure is a Buddhist-Era year. */
  year: boolean;
  /** วันที่ / "January 5". */
  day: boolean;
  /** ข้อ 3, ขั้นตอนที่ 2, [1]: numbering, not a figure. */
  numbering: boolean;
  /** Glued to a Latin word (COVID-19, Qwen3, GPT-4): a name, not a figure. */
  name: boolean;
}

const currencySymbols = ['US$', '$', '฿', '€', '£', '¥'];
const numberingWords = ['ข้อที่', 'ข้อ', 'ลำดับที่', 'ขั้นตอนที่', 'บทที่', 'ตอนที่', 'ภาคที่', 'หมายเลข'];

/** What precedes the figure starting at `start`. */
export function readPrefix(text: string, start: number): Prefix {
  const before = text.slice(Math.max(0, start - 24), start);
  const trimmed = before.replace(/[ \u00a0]{1,2}$/, '');
  const symbol = currencySymbols.find((candidate) => before.endsWith(candidate));
  const lower = trimmed.toLowerCase();
  const currencyCode = lower.endsWith('usd') || lower.endsWith('thb');
  const lastWord = /[A-Za-z]{1,12}$/.exec(trimmed)?.[0].toLowerCase() ?? '';
  return {
    symbolLength: symbol?.length ?? 0,
    money: symbol !== undefined || currencyCode,
    percent: trimmed.endsWith('ร้อยละ'),
    year: /(?:พ\.ศ\.?|ค\.ศ\.?|ปี)$/.test(trimmed),
    day: trimmed.endsWith('วันที่') || englishMonths.some((month) => lastWord === month || lastWord === month.slice(0, 3)),
    numbering: numberingWords.some((word) => trimmed.endsWith(word)) || (before.endsWith('[') && text[start - 2] !== '['),
    name: !currencyCode && (/[A-Za-z]$/.test(before) || /[A-Za-z]-$/.test(before)),
  };
}

/** `1.`, `2)` or `- 3.` opening a line: list numbering. */
export function isListNumber(text: string, start: number, end: number): boolean {
  const window = text.slice(Math.max(0, start - 12), start);
  const newline = window.lastIndexOf('\n');
  if (newline < 0 && start > 12) return false;
  if (!/^[ \t>#*+-]{0,10}$/.test(window.slice(newline + 1))) return false;
  return /^[.)](?:[ \t]|$)/.test(text.slice(end, end + 2));
}
