// The text the DLP scanner reads, before any of its forms (normalize-forms.ts).

// Zero-width space/joiners, word joiner, soft hyphen, BOM, bidi marks and invisible operators: all are used
// to split a token so that a pattern no longer matches it.
const invisible = /[\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

export function removeInvisible(text: string): string {
  return text.replace(invisible, '');
}

/** `ghp\_abc` → `ghp_abc`: a Markdown backslash escape before ASCII punctuation. */
export function unescapeMarkdown(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

// NFKC leaves ASCII as it is and changes nothing in the Thai block but ำ (never part of a credential or a label),
// and the invisible characters are outside both: only words holding another character need either.
const unusual = /[^\t\n\r -~\u0e00-\u0e7f]/g;
/** Past this many such words, the rest of the text is normalized in one call (a text in another script). */
const maximumWords = 64;

function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/**
 * NFKC with invisible characters removed, word by word: a space, tab or line break never composes with a
 * neighbour, so this is the whole text's form, but a Thai answer with one curly quote costs one word, not a copy.
 */
function compatibilityForm(text: string): string {
  let result = '';
  let copied = 0;
  unusual.lastIndex = 0;
  for (let match = unusual.exec(text), words = 0; match !== null; match = unusual.exec(text), words++) {
    let start = match.index;
    while (start > copied && !isWhitespace(text.charCodeAt(start - 1))) start--;
    let end = words < maximumWords ? match.index + 1 : text.length;
    while (end < text.length && !isWhitespace(text.charCodeAt(end))) end++;
    result += text.slice(copied, start) + removeInvisible(text.slice(start, end).normalize('NFKC'));
    copied = end;
    unusual.lastIndex = end;
  }
  return result + text.slice(copied);
}

/**
 * The form the credential patterns run on: NFKC (full-width letters become ASCII), invisible characters
 * removed, Markdown escapes undone. Only for scanning: NFKC changes Thai (ำ) and must never reach the user.
 */
export function normalizeForScan(text: string): string {
  const compatible = compatibilityForm(text);
  return compatible.includes('\\') ? unescapeMarkdown(compatible) : compatible;
}
