import { type Edit, maximumEdits } from './normalize-fragments.js';

// Hyphens put into a token so that no pattern matches it: groups joined by hyphens (`ghp_abcd-EFGH-ijkl-…`), and
// one hyphen between every character (`g-h-p-_-a-b-c-…`). Any other separator between every character:
// normalize-separated.ts.

const minimumGroupLength = 3;
const maximumGroupLength = 8;
const minimumRegularGroups = 3;
/** Long runs of single characters only (10 or more: a password), and only with enough letters and digits to be a token. */
const minimumSeparatedCharacters = 10;
const minimumAlphanumerics = 6;
const maximumChain = 4_096;
/** Three groups of three characters and their hyphens, the shortest chain a rule below can join. */
const minimumChain = 12;

/**
 * `ghp_abcd-EFGH-ijkl-mnop` → `ghp_abcdEFGHijklmnop`: only when the groups after the first have one length
 * (3 to 8; the last may be shorter), as a grouped token has. Words (`state-of-the-art`), grades (`A-B-C-D`),
 * UUIDs (8-4-4-4-12) and phone numbers stay as they are. A first group shorter than the rest is a prefix
 * (`sk-proj-…`): its hyphen stays.
 */
function joinedGroups(chain: string): string | undefined {
  const [head = '', ...groups] = chain.split('-');
  const size = groups[0]?.length ?? 0;
  if (size < minimumGroupLength || size > maximumGroupLength || groups.length < minimumRegularGroups) return undefined;
  const last = groups.at(-1)?.length ?? 0;
  if (last > size || groups.slice(0, -1).some((group) => group.length !== size)) return undefined;
  const headWord = head.slice(Math.max(head.lastIndexOf(':'), head.lastIndexOf('='), head.lastIndexOf('/')) + 1); // `key=sk`
  return `${head}${headWord.length < size ? '-' : ''}${groups.join('')}`;
}

function alphanumericCount(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index) | 32; // lower-cases ASCII letters
    if ((code >= 48 && code <= 57) || (code >= 97 && code <= 122)) count++;
  }
  return count;
}

/** The characters at even positions when every odd position holds `separator`: the run without its separators. */
function withoutSeparators(run: string, separator: string): string | undefined {
  if (run.length < minimumSeparatedCharacters * 2 - 1 || run.length % 2 === 0) return undefined;
  let out = '';
  for (let index = 0; index < run.length; index += 2) {
    if (index > 0 && run[index - 1] !== separator) return undefined;
    out += run[index];
  }
  return alphanumericCount(out) >= minimumAlphanumerics ? out : undefined;
}

/**
 * `F3EM-E5x9-…`: a token cut every `size` characters from its start (its own hyphens included, so `sk-p-roj-…`),
 * the hyphens put in at positions size, 2·size + 1, …: those are removed. At least three, the last group not longer.
 */
function joinedFixedGroups(chain: string): string | undefined {
  for (let size = minimumGroupLength; size <= maximumGroupLength; size++) {
    const hyphens = Math.floor((chain.length - 1) / (size + 1));
    if (hyphens < minimumRegularGroups) continue;
    let fits = true;
    for (let position = size; position < chain.length && fits; position += size + 1) fits = chain[position] === '-';
    if (!fits) continue;
    let out = '';
    for (let index = 0; index < chain.length; index++) if ((index - size) % (size + 1) !== 0 || index < size) out += chain[index];
    return out;
  }
  return undefined;
}

function isChainCharacter(code: number): boolean {
  return code > 32 && code < 127; // printable ASCII: a connection string's `;`, a URL's `@`
}

// Quotes and brackets around a chain, and a sentence's punctuation after it.
const chainOpeners = /^["'`([{<]{1,4}/;
const chainClosers = /["'`)\]}>,.;:]{1,4}$/;

/**
 * Hyphen chains (maximal runs of printable ASCII holding a hyphen), found from each hyphen with indexOf rather
 * than tried at every position by a regex. Each character is visited a bounded number of times.
 */
export function hyphenEdits(text: string): Edit[] {
  const edits: Edit[] = [];
  let scanned = 0;
  for (let hyphen = text.indexOf('-'); hyphen >= 0 && edits.length < maximumEdits; hyphen = text.indexOf('-', scanned)) {
    let start = hyphen;
    while (start > scanned && hyphen - start < maximumChain && isChainCharacter(text.charCodeAt(start - 1))) start--;
    let end = hyphen + 1;
    let hyphens = 1;
    for (; end < text.length && end - start < maximumChain && isChainCharacter(text.charCodeAt(end)); end++) if (text[end] === '-') hyphens++;
    scanned = end + 1;
    // `well-known`, `2026-12-31`, `|---|---|`: most chains are too short to hold a token, and are not sliced.
    if (hyphens < minimumRegularGroups || end - start < minimumChain) continue;
    start += chainOpeners.exec(text.slice(start, hyphen))?.[0].length ?? 0;
    end -= chainClosers.exec(text.slice(Math.max(hyphen + 1, end - 4), end))?.[0].length ?? 0;
    const chain = text.slice(start, end);
    // A label glued before the token (`key=F3EM-…`) is kept as it is; the groups start after it.
    const labelEnd = Math.max(chain.lastIndexOf('=', hyphen - start), chain.lastIndexOf(':', hyphen - start)) + 1;
    const token = chain.slice(labelEnd);
    // A token's own hyphen shows as `---` between characters, so the single-character test comes first.
    const replacement = withoutSeparators(token, '-') ?? joinedFixedGroups(token) ?? joinedGroups(token);
    // `|---|---|---|---|---|`, a Markdown table's rule, is regular too, but holds no letters or digits.
    if (replacement !== undefined && alphanumericCount(replacement) >= minimumAlphanumerics) edits.push({ start: start + labelEnd, end, replacement });
  }
  return edits;
}
