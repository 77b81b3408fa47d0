// The words around a figure that change what it means: scale words, percent and money markers, months, year
// and list prefixes (Thai and English). Each lookup is one sticky match at the figure's edge (no slicing, no
// scans of word lists), and is only tried when the neighbouring character makes it possible.

export interface Suffix {
  /** Characters the suffix takes after the figure (the scale word or percent sign, with the space before it). */
  length: number;
  scale: number;
  percent: boolean;
  money: boolean;
  /** `น.` / `นาฬิกา` after `14.30`. */
  clock: boolean;
  month: boolean;
}

export interface Prefix {
  /** Characters of a currency symbol right before the figure (replaced with it). */
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

export const thaiMonths = ['มกราคม', 'กุมภาพันธ์', 'มีนาคม', 'เมษายน', 'พฤษภาคม', 'มิถุนายน', 'กรกฎาคม', 'สิงหาคม', 'กันยายน', 'ตุลาคม', 'พฤศจิกายน', 'ธันวาคม'];
export const thaiMonthAbbreviations = ['ม.ค.', 'ก.พ.', 'มี.ค.', 'เม.ย.', 'พ.ค.', 'มิ.ย.', 'ก.ค.', 'ส.ค.', 'ก.ย.', 'ต.ค.', 'พ.ย.', 'ธ.ค.'];
export const englishMonths = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

const scaleValues: Record<string, number> = {
  ล้านล้าน: 1e12,
  แสนล้าน: 1e11,
  หมื่นล้าน: 1e10,
  พันล้าน: 1e9,
  ล้าน: 1e6,
  แสน: 1e5,
  หมื่น: 1e4,
  พัน: 1e3,
  trillion: 1e12,
  billion: 1e9,
  million: 1e6,
  thousand: 1e3,
  bn: 1e9,
  k: 1e3,
  m: 1e6,
  b: 1e9,
};
// Longest first (ล้านล้าน before ล้าน); พันธุ์ is a breed, not a thousand.
const scaleWord = /ล้านล้าน|แสนล้าน|หมื่นล้าน|พันล้าน|ล้าน|แสน|หมื่น|พัน(?!ธ)|(?:trillion|billion|million|thousand|bn)(?![A-Za-z])/iy;
const attachedScale = /[kKMB](?![A-Za-z])/y;
const percentWord = /%|เปอร์เซ็นต์|เปอร์เซนต์|per ?cent(?![A-Za-z])/iy;
const moneyWord = /บาท|ดอลลาร์|ยูโร|เยน|ปอนด์|หยวน|(?:baht|dollars?|usd|thb|euros?|yen)(?![A-Za-z])/iy;
const clockWord = /น\.|นาฬิกา/y;
const monthWord =
  /มกราคม|กุมภาพันธ์|มีนาคม|เมษายน|พฤษภาคม|มิถุนายน|กรกฎาคม|สิงหาคม|กันยายน|ตุลาคม|พฤศจิกายน|ธันวาคม|(?:ม\.ค|ก\.พ|มี\.ค|เม\.ย|พ\.ค|มิ\.ย|ก\.ค|ส\.ค|ก\.ย|ต\.ค|พ\.ย|ธ\.ค)\.|(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t|tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![A-Za-z])/iy;
const englishMonthNames = new Set([...englishMonths, ...englishMonths.map((month) => month.slice(0, 3))]);
const numberingWords = ['ข้อที่', 'ข้อ', 'ลำดับที่', 'ขั้นตอนที่', 'บทที่', 'ตอนที่', 'ภาคที่', 'หมายเลข'];
const yearWords = ['พ.ศ.', 'พ.ศ', 'ค.ศ.', 'ค.ศ', 'ปี'];
const currencySymbols = ['US$', '$', '฿', '€', '£', '¥'];
/** The most characters before a figure's first digit that its marker replaces (a currency symbol, "US$"). */
export const longestFigurePrefix = Math.max(...currencySymbols.map((symbol) => symbol.length));
/** ASCII characters a prefix can end with: space, $, -, ., [ (and no-break space). */
const prefixEnders = new Set([32, 36, 45, 46, 91, 0xa0]);

function endsWithAny(text: string, words: readonly string[]): boolean {
  for (const word of words) if (text.endsWith(word)) return true;
  return false;
}

function isLatinLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isThai(code: number): boolean {
  return code >= 0x0e00 && code <= 0x0e7f;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 0xa0;
}

/** The match of a sticky pattern exactly at `at`, or undefined. */
function matchAt(pattern: RegExp, text: string, at: number): string | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text)?.[0];
}

function skipSpaces(text: string, from: number): number {
  let index = from;
  while (index < text.length && index - from < 2 && isSpace(text.charCodeAt(index))) index++;
  return index;
}

export const plainSuffix: Readonly<Suffix> = Object.freeze({ length: 0, scale: 1, percent: false, money: false, clock: false, month: false });
const plainPrefix: Readonly<Prefix> = Object.freeze({
  symbolLength: 0,
  money: false,
  percent: false,
  year: false,
  day: false,
  numbering: false,
  name: false,
});

/** What follows the figure ending at `end`. Most figures are followed by punctuation or a plain word: fast exit. */
export function readSuffix(text: string, end: number): Readonly<Suffix> {
  const attached = matchAt(attachedScale, text, end);
  const next = text.charCodeAt(skipSpaces(text, end));
  if (!attached && next !== 37 && !isThai(next) && !isLatinLetter(next)) return plainSuffix; // no allocation
  const suffix: Suffix = { ...plainSuffix };
  if (attached) {
    suffix.scale = scaleValues[attached.toLowerCase()] ?? 1;
    suffix.length = 1;
  }
  let at = skipSpaces(text, end + suffix.length);
  const first = text.charCodeAt(at);
  if (first !== 37 && !isThai(first) && !isLatinLetter(first)) return suffix;
  const scale = attached ? undefined : matchAt(scaleWord, text, at);
  if (scale) {
    suffix.scale = scaleValues[scale.toLowerCase()] ?? 1;
    suffix.length = at + scale.length - end;
    at = skipSpaces(text, at + scale.length);
  }
  const percent = matchAt(percentWord, text, at);
  if (percent) {
    suffix.percent = true;
    suffix.length = at + percent.length - end;
  }
  suffix.money = matchAt(moneyWord, text, at) !== undefined;
  suffix.clock = matchAt(clockWord, text, at) !== undefined;
  suffix.month = matchAt(monthWord, text, at) !== undefined;
  return suffix;
}

/** What precedes the figure starting at `start`; only the checks the last character makes possible are run. */
export function readPrefix(text: string, start: number): Readonly<Prefix> {
  if (start === 0) return plainPrefix;
  const previous = text.charCodeAt(start - 1);
  // Fast exit: after a space, newline or punctuation that no prefix word ends with.
  if (previous < 128 && !isLatinLetter(previous) && !prefixEnders.has(previous)) return plainPrefix;
  const prefix: Prefix = { ...plainPrefix };
  let symbol: string | undefined;
  for (const candidate of currencySymbols) if (symbol === undefined && text.startsWith(candidate, start - candidate.length)) symbol = candidate;
  if (symbol) {
    prefix.symbolLength = symbol.length;
    prefix.money = true;
    return prefix;
  }
  if (previous === 91) {
    prefix.numbering = text.charCodeAt(start - 2) !== 91; // [3], not [[3
    return prefix;
  }
  if (previous === 45 && isLatinLetter(text.charCodeAt(start - 2))) {
    prefix.name = true; // COVID-19
    return prefix;
  }
  let last = start;
  while (last > 0 && start - last < 2 && isSpace(text.charCodeAt(last - 1))) last--;
  const lastCode = text.charCodeAt(last - 1);
  if (isLatinLetter(lastCode) && last === start && !/[bdBD]/.test(text[last - 1] ?? '')) {
    prefix.name = true; // glued to a word that cannot end in usd/thb: Qwen3, H2O
    return prefix;
  }
  if (isLatinLetter(lastCode)) {
    let wordStart = last - 1;
    while (wordStart > 0 && last - wordStart < 12 && isLatinLetter(text.charCodeAt(wordStart - 1))) wordStart--;
    const word = text.slice(wordStart, last).toLowerCase();
    prefix.money = word.endsWith('usd') || word.endsWith('thb');
    prefix.day = englishMonthNames.has(word);
    prefix.name = last === start && !prefix.money; // glued: Qwen3
  } else if (isThai(lastCode) || lastCode === 46) {
    const before = text.slice(Math.max(0, last - 12), last);
    prefix.percent = before.endsWith('ร้อยละ');
    prefix.year = endsWithAny(before, yearWords);
    prefix.day = before.endsWith('วันที่');
    prefix.numbering = endsWithAny(before, numberingWords);
  }
  return prefix;
}

/** `1.`, `2)` or `- 3.` opening a line: list numbering. */
export function isListNumber(text: string, start: number, end: number): boolean {
  if (text[end] !== '.' && text[end] !== ')') return false;
  const window = text.slice(Math.max(0, start - 12), start);
  const newline = window.lastIndexOf('\n');
  if (newline < 0 && start > 12) return false;
  if (!/^[ \t>#*+-]{0,10}$/.test(window.slice(newline + 1))) return false;
  return /^[.)](?:[ \t]|$)/.test(text.slice(end, end + 2));
}
