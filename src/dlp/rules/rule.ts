import { isPlaceholderSecret, shannonEntropy } from '../placeholder.js';

// The shape of one credential rule, and the checks the rules share. Every pattern is prefix-anchored or
// boundary-anchored, its quantifiers are bounded, and its character classes cannot overlap its delimiters, so each
// runs in linear time. `accept` applies structural checks and the placeholder policy (../placeholder.ts).

export interface CredentialRule {
  kind: string;
  /** Global, sticky-free pattern; run on windows of bounded length. */
  pattern: RegExp;
  /** True when the match is a credential (not a placeholder, structurally valid). */
  accept(match: RegExpExecArray, text: string): boolean;
  /**
   * Lower-case strings, one of which the lower-cased text contains whenever the rule can accept a match: lets the
   * log redactor skip the pattern on the many lines that cannot hold this credential.
   */
  literals: readonly string[];
  /**
   * For a rule without a prefix of its own, whose `accept` needs a clue nearby (a label, a key id): the clues, each
   * one a global pattern, and how far from a clue a match may start. The pattern then runs only there, not over
   * every long run of letters in a large text. Every match `accept` can take must lie within `reach` of a clue.
   */
  near?: { clues: readonly RegExp[]; reach: number };
}

/** True when the random part of a token (all of it, every segment) is not a documentation placeholder. */
export function realRandom(randomPart: string): boolean {
  return !isPlaceholderSecret(randomPart);
}

/** Letters and digits, random by the placeholder policy, and at least `minimumEntropy` bits per character. */
export function randomKeyBody(body: string, minimumEntropy = 3.5): boolean {
  return /[A-Za-z]/.test(body) && /\d/.test(body) && realRandom(body) && shannonEntropy(body) >= minimumEntropy;
}

/** Upper-case, lower-case letters and digits, all three. */
export function hasMixedClasses(text: string): boolean {
  return /[a-z]/.test(text) && /[A-Z]/.test(text) && /\d/.test(text);
}

/** Base64 (either alphabet, padding optional) decoded; trailing characters that do not fill a byte are dropped. */
export function decodeBase64(text: string): Buffer {
  let end = text.length;
  while (end > 0 && text[end - 1] === '=') end--;
  const body = text.slice(0, end % 4 === 1 ? end - 1 : end);
  return Buffer.from(body, body.includes('-') || body.includes('_') ? 'base64url' : 'base64');
}

export function decodesToJsonObject(part: string): boolean {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Up to `length` characters before the match, lower-cased: where a label such as `AccountKey=` would stand. */
export function lowerBefore(match: RegExpExecArray, text: string, length: number): string {
  return text.slice(Math.max(0, match.index - length), match.index).toLowerCase();
}

/** `my-project-name`, `your_token_here`: lower-case words joined by hyphens or underscores, not a random token. */
export function isLowerCaseWords(text: string): boolean {
  return /^[a-z0-9]{1,40}(?:[-_][a-z0-9]{1,40}){1,40}$/.test(text);
}
