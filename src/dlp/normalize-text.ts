// Text normalization shared by the DLP scanner and the answer guards.

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
// so text of ASCII and Thai alone skips it: a long Thai answer is scanned in a fraction of the time.
const needsCompatibilityForms = /[^\t\n\r -~\u0e00-\u0e7f]/;

/**
 * The form the credential patterns run on: NFKC (full-width letters become ASCII), invisible characters
 * removed, Markdown escapes undone. Only for scanning: NFKC changes Thai (ำ) and must never reach the user.
 */
export function normalizeForScan(text: string): string {
  return unescapeMarkdown(removeInvisible(needsCompatibilityForms.test(text) ? text.normalize('NFKC') : text));
}

/** A token wrapped over several lines (`ghp_abc` ⏎ `def…`), also inside a `>` quote, read as one line. */
export function joinWrappedLines(text: string): string {
  return text.replace(/(?<![ \t])[ \t]{0,16}\r?\n[ \t>]{0,16}/g, '');
}
