// The one placeholder policy of the DLP scanner.
//
// A token of a credential's shape is NOT blocked when its random part (ALL of it: every segment after the
// vendor's prefix, never just the last one) is evidently a documentation placeholder:
//   - it contains a marker word: "example", "sample", "dummy", "placeholder", "redacted", or says what to put
//     there ("your-api-key", "your_token", "token-here"), in any case (AWS documentation keys such as
//     AKIAIOSFODNN7EXAMPLE), or
//   - what is left after removing its runs (4 or more identical characters, or 4 or more consecutive ascending or
//     descending ones: xxxx, 0000, ****, 1234, abcd, 9876) is less than half of it, or has fewer than 8 distinct
//     characters or a Shannon entropy below 3 bits per character.
// A real key is random: for a real 20+ character key each rule holds with a probability far below one in a
// million, while fixtures in docs and READMEs (`sk_live_AAAA…`, `hf_xxxx…`, `ghp_1234567890abcdef…`) hit at least
// one. A real token is never excused by a short or low-entropy segment: the whole random part is judged, and a
// masked stretch (`****`) does not excuse the random characters around it unless they are the smaller part.
// The exact values of Saeng's own configured secrets are always blocked, placeholder-looking or not.
//
// Passwords in URLs are not random, so they have their own, narrower policy (isPlaceholderPassword): only
// templates (`<password>`, `${PASSWORD}`, `{{pass}}`, `%PASS%`), masks (`****`, `xxx`, `...`), the stock words of
// documentation (`password`, `pass`, `secret`, `changeme`, …) and phrases made of them (`REPLACE_WITH_PASSWORD`,
// `your-db-password`), and what guards nothing: fewer than 4 characters, or one run (`1111`, `12345678`, `abcd`).
// A URL whose password is its user name (`postgres://postgres:postgres@…`, a container's default) passes too
// (rules/connection-urls.ts).

const markerWords = /example|sample|dummy|placeholder|redacted|your[-_]?(?:api[-_]?)?(?:key|token|secret)|(?:key|token|secret)[-_]?here/i;
const minimumDistinct = 8;
const minimumEntropy = 3;
const runLength = 4;

export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const character of text) counts.set(character, (counts.get(character) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const share = count / text.length;
    entropy -= share * Math.log2(share);
  }
  return entropy;
}

/** The text without its runs of identical or consecutive characters (see the policy above). */
function withoutRuns(text: string): string {
  let kept = '';
  let runStart = 0;
  let step = Number.NaN;
  const flush = (end: number): void => {
    if (end - runStart < runLength) kept += text.slice(runStart, end);
  };
  for (let index = 1; index <= text.length; index++) {
    const next = index < text.length ? text.charCodeAt(index) - text.charCodeAt(index - 1) : Number.NaN;
    const continues = Math.abs(next) <= 1 && (index - runStart === 1 || next === step);
    if (continues) {
      step = next;
      continue;
    }
    flush(index);
    runStart = index;
    step = Number.NaN;
  }
  return kept;
}

/** True when the random part of a matched token is a documentation placeholder (see the policy above). */
export function isPlaceholderSecret(randomPart: string): boolean {
  if (markerWords.test(randomPart)) return true;
  const rest = withoutRuns(randomPart);
  if (rest.length * 2 < randomPart.length) return true;
  if (new Set(rest).size < minimumDistinct) return true;
  return shannonEntropy(rest) < minimumEntropy;
}

const stockPasswords = new Set([
  'password',
  'passwd',
  'pass',
  'pwd',
  'secret',
  'changeme',
  'changeit',
  'yourpassword',
  'mypassword',
  'dbpassword',
  'userpassword',
  'passwordhere',
  'yourpasswordhere',
  'enterpassword',
  'redacted',
  'example',
  'placeholder',
  'hidden',
  'masked',
  'xxx',
]);

const templated =
  /^(?:<[^<>]{1,64}>|\$\{[^{}]{1,64}\}|\$[A-Za-z_][A-Za-z0-9_]{0,63}|\{\{[^{}]{1,64}\}\}|\{[^{}]{1,64}\}|%[A-Za-z_][A-Za-z0-9_]{0,63}%|\[[^[\]]{1,64}\])$/;
const masked = /^[*x•.…#?_-]{1,64}$/i;

/** The words of documentation's password phrases (`REPLACE_WITH_PASSWORD`, `enter-your-db-password`). */
const phraseWords = new Set([
  'replace',
  'with',
  'your',
  'the',
  'my',
  'db',
  'database',
  'user',
  'enter',
  'insert',
  'put',
  'here',
  'actual',
  'real',
  'own',
  'new',
]);
const secretWords = new Set(['password', 'passwd', 'pass', 'pwd', 'secret']);
/** Shorter passwords guard nothing a chat could leak (`user:abc@`). */
const minimumPassword = 4;

/** `REPLACE_WITH_PASSWORD`: letters only, in words joined by `_`, `-` or `.`, each a phrase word, one a password word. */
function isPasswordPhrase(password: string): boolean {
  if (!/^[A-Za-z]{1,20}(?:[_.-][A-Za-z]{1,20}){1,5}$/.test(password)) return false;
  const words = password.toLowerCase().split(/[_.-]/);
  return words.some((word) => secretWords.has(word)) && words.every((word) => secretWords.has(word) || phraseWords.has(word));
}

/** True when a password written in a URL is a documentation placeholder or guards nothing (see the policy above). */
export function isPlaceholderPassword(password: string): boolean {
  if (password.length < minimumPassword || withoutRuns(password).length === 0) return true;
  if (templated.test(password) || masked.test(password) || isPasswordPhrase(password)) return true;
  const word = password.toLowerCase().replace(/[^a-z]/g, '');
  return stockPasswords.has(word) && password.replace(/[^A-Za-z]/g, '').length >= password.length - 2;
}
