// A token count for planning prompts without the model's tokenizer (a 2B CPU server has no count endpoint worth a
// round trip per line). Qwen's tokenizers spend about 0.5–0.6 tokens on a Thai character, one on each digit and a
// third on a Latin letter; the weights below sit above what Qwen3's tokenizer gives on Thai chat (bench/summary.ts
// measures the ratio on every prompt), because a prompt counted short overflows the context and the server cuts it.

/** Weights per UTF-16 unit, by what the unit is. */
const weights = {
  thai: 0.85,
  digit: 1,
  latinLetter: 0.5,
  space: 1,
  newline: 1,
  asciiOther: 1,
  /** CJK, other scripts, symbols: one to two tokens a character. */
  otherBmp: 1.5,
  /** Half of an emoji or other astral character (two to four tokens each). */
  surrogate: 2,
};

function weightOf(code: number): number {
  if (code >= 0x0e00 && code <= 0x0e7f) return weights.thai;
  if (code >= 48 && code <= 57) return weights.digit;
  if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) return weights.latinLetter;
  if (code === 32 || code === 9) return weights.space;
  if (code === 10 || code === 13) return weights.newline;
  if (code < 128) return weights.asciiOther;
  if (code >= 0xd800 && code <= 0xdfff) return weights.surrogate;
  return weights.otherBmp;
}

/** Tokens `text` may take at most, by its characters (never fewer than one a non-empty text). */
export function estimateTokens(text: string): number {
  let total = 0;
  for (let index = 0; index < text.length; index++) total += weightOf(text.charCodeAt(index));
  return Math.ceil(total);
}

/** The longest prefix of `text` (cut at a code point) that `count` puts within `maxTokens`. */
export function prefixWithinTokens(text: string, maxTokens: number, count: (text: string) => number): string {
  if (count(text) <= maxTokens) return text;
  let low = 0;
  let high = text.length;
  // Binary search on the length: counts grow with the prefix for any sane counter.
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (count(text.slice(0, middle)) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  const last = text.charCodeAt(low - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? low - 1 : low);
}
