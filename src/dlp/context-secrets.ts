import { type LabelFamily, labelledValueKind } from './context-secrets-values.js';

// Secrets without a prefix (AWS secret keys, LINE channel secrets, Twilio auth tokens, Azure storage keys,
// passwords, generic API keys and tokens) are found by their label: a key-like word in Thai or English, also as
// the end of an identifier (`AWS_SECRET_ACCESS_KEY`, `apiKey`, `X-API-Key`), then within 40 characters a
// separator (`:` `=` `:=` `=>` `->` `|`, คือ, เป็น, ` is `, ` to `), with quotes, backticks and `**` around, and
// the value. Between the label word and the separator only a short qualifier may stand: Thai words and up to
// three Latin words (`คีย์ลับ AWS`, `Channel secret ของ LINE`, `รหัสผ่านของคุณ`, `DB password`).
// One case-insensitive pass finds the label words; each hit reads at most 40 + 200 characters with bounded
// patterns, so the cost is linear in the text.

const labelWords = /secret|token|passw(?:or)?d|passphrase|pwd|pass|key|authorization|พาสเวิร์ด|คีย์(?:ลับ)?|กุญแจ|รหัสผ่าน|รหัสลับ|โทเค็?น|ความลับ|ซีเคร็[ตท]|ซีเครท/gi;

const qualifierReach = 40;
// The first separator after the label word, in a window of `qualifierReach` characters.
const separator = /:=|=>|->|[:=|]|คือ|เป็น|[ \t](?:is|to|as)[ \t]/;
// Thai words, spaces, Latin words, brackets, quotes and `**`: what a qualifier may be made of.
const qualifierText = /^[\u0e01-\u0e4e \tA-Za-z0-9()*"'`\]]{0,40}$/;
const latinWord = /[A-Za-z][A-Za-z0-9]{0,30}/g;
const maximumQualifierWords = 3;
// After the separator: `**`, an opening quote, `Bearer `/`Basic `, then the value (no space, quote, `|`, `<>`, `;`,
// `,`, `&`).
const valueAfterSeparator = /\*{0,2}[ \t]{0,3}["'`]{0,2}(?:(?:Bearer|Basic)[ \t]{1,2})?([^\s"'`|<>;,&]{1,200})/y;

// A qualifier that makes the label name something else than the secret: `key ID:`, `token URL:`, `secret name:`.
const otherThing = new Set([
  'id',
  'ids',
  'hash',
  'sha',
  'md5',
  'name',
  'names',
  'length',
  'url',
  'uri',
  'path',
  'file',
  'type',
  'format',
  'prefix',
  'size',
  'expiry',
  'expires',
  'expiration',
  'version',
  'count',
  'rotation',
  'policy',
  'manager',
  'fingerprint',
  'usage',
  'limit',
  'scope',
  'scopes',
  'endpoint',
  'header',
  'field',
  'public',
  'publishable',
]);

// `PublicKey =`, `public key:`, `pub_key`, `คีย์สาธารณะ`: a public key (WireGuard, SSH, PGP) is no secret.
const publicBefore = /pub(?:lic)?[ _-]?$/i;
const publicThai = /สาธารณะ/;

// Lower-case words that make `key`, `token` or `secret` the end of a compound (`apikey`, `accesstoken`).
const compoundHeads = /(?:api|secret|access|private|account|client|auth|app|master|session|consumer|signing|bearer|refresh|encryption|license|x)$/;
const keyLabelNearby = /secret|api|access|private|account|auth|client|aws|azure|master|signing|ลับ/i;
const identifierCharacter = /[A-Za-z0-9_.-]/;
const maximumIdentifier = 64;
const contextBefore = 48;

function familyOf(word: string): LabelFamily {
  const lower = word.toLowerCase();
  if (lower.startsWith('pass') || lower === 'pwd' || lower.startsWith('รหัส') || lower === 'พาสเวิร์ด') return 'password';
  // Thai speakers write คีย์ for an API key; กุญแจ is the everyday word.
  if (lower === 'secret' || lower === 'คีย์ลับ' || lower === 'ความลับ' || lower === 'คีย์' || lower.startsWith('ซีเคร')) return 'secret';
  if (lower === 'token' || lower === 'authorization' || lower.startsWith('โทเค')) return 'token';
  return 'key';
}

function identifierStart(text: string, wordStart: number): number {
  let start = wordStart;
  while (start > 0 && wordStart - start < maximumIdentifier && identifierCharacter.test(text[start - 1] ?? '')) start--;
  return start;
}

/**
 * An English label word glued to letters before it is a label only as a compound: camelCase (`apiKey`,
 * `clientSecret`), all capitals (`APIKEY`) or a known head (`apikey`); not `monkey`, `whiskey`, `bypass`.
 */
function startsLabel(text: string, wordStart: number, word: string): boolean {
  const before = text[wordStart - 1] ?? '';
  if (!/[A-Za-z]/.test(before) || !/^[a-z]/i.test(word)) return true;
  if (/^[A-Z]/.test(word) && /[a-z]/.test(before)) return true;
  const head = /[A-Za-z]{1,24}$/.exec(text.slice(Math.max(0, wordStart - 24), wordStart))?.[0] ?? '';
  if (head === head.toUpperCase() && word === word.toUpperCase()) return true;
  return compoundHeads.test(head.toLowerCase());
}

function trimmed(value: string): string {
  return value.replace(/[.,:)\]}*]{1,8}$/, ''); // a sentence's full stop, a closing bracket, Markdown's `**`
}

interface LabelTail {
  /** The Latin words between the label word and the separator (`AWS`, `ID`). */
  qualifier: string[];
  /** Everything between the label word and the separator. */
  between: string;
  valueStart: number;
  rawValue: string;
}

/** What follows a label word at `end`: a plural `s` or a number (`key1`), a qualifier, a separator, the value. */
function labelTail(text: string, end: number): LabelTail | undefined {
  let from = end;
  if (text[from] === 's' || text[from] === 'S') from++;
  else while (from < end + 2 && /\d/.test(text[from] ?? '')) from++;
  const next = text[from] ?? '';
  // `keyboard`, `TOKEN_URL`, `secret-name`, `token.length`: the identifier goes on, the label names something else.
  if (/[A-Za-z0-9_]/.test(next) || (/[.-]/.test(next) && /[A-Za-z]/.test(text[from + 1] ?? ''))) return undefined;
  const window = text.slice(from, from + qualifierReach);
  const found = separator.exec(window);
  if (!found) return undefined;
  const between = window.slice(0, found.index);
  if (!qualifierText.test(between)) return undefined;
  const qualifier = between.match(latinWord) ?? [];
  if (qualifier.length > maximumQualifierWords) return undefined;
  valueAfterSeparator.lastIndex = from + found.index + found[0].length;
  const value = valueAfterSeparator.exec(text);
  const rawValue = value?.[1];
  if (!value || rawValue === undefined) return undefined;
  return { qualifier, between, valueStart: value.index + value[0].length - rawValue.length, rawValue };
}

/** Where a labelled value is in the text, and its kind. */
export interface LabelledSecret {
  start: number;
  end: number;
  kind: string;
}

const valueRest = /[^\s"'`|<>;,&]{1,200}/y;
const queryParameter = /^&[A-Za-z_][A-Za-z0-9_.-]{0,30}=/;

/**
 * A password may hold `&` (`sP+sg&asXR`), where the value pattern stops for a URL's next parameter: read on across
 * each `&` that does not start one (`&limit=10`), up to 128 characters.
 */
function acrossAmpersands(text: string, valueStart: number, rawValue: string): string {
  let end = valueStart + rawValue.length;
  while (text[end] === '&' && end - valueStart < 128 && !queryParameter.test(text.slice(end, end + 34))) {
    valueRest.lastIndex = end + 1;
    const rest = valueRest.exec(text);
    if (!rest) break;
    end += 1 + rest[0].length;
  }
  return text.slice(valueStart, end);
}

/** The credential kinds of labelled values in `text` (see contextSecretRanges). */
export function contextSecretKinds(text: string, coveredByFormat: (start: number, end: number) => boolean): string[] {
  return [...new Set(contextSecretRanges(text, coveredByFormat).map((found) => found.kind))];
}

/**
 * The labelled values in `text`, each with its kind. A value inside a credential of a known format (`coveredByFormat`
 * of its span: a token with a prefix, the `AccountKey` of a connection string) is left to the format rules.
 */
export function contextSecretRanges(text: string, coveredByFormat: (start: number, end: number) => boolean): LabelledSecret[] {
  const found: LabelledSecret[] = [];
  let lastValueStart = -1;
  labelWords.lastIndex = 0;
  for (let match = labelWords.exec(text); match !== null; match = labelWords.exec(text)) {
    const word = match[0];
    if (word.toLowerCase() === 'pass' && !/[_-]/.test(text[match.index - 1] ?? '')) continue; // only `DB_PASS`
    if (!startsLabel(text, match.index, word)) continue;
    const start = identifierStart(text, match.index);
    // `<password>`, `${DB_PASSWORD:?required}`, `$TOKEN`, `%API_KEY%`: a template's slot or a variable, not a label.
    if (/[<$%]/.test(text[start - 1] ?? '') || text.slice(start - 2, start) === '${') continue;
    if (publicBefore.test(text.slice(Math.max(0, match.index - 8), match.index))) continue;
    const tail = labelTail(text, match.index + word.length);
    if (!tail) continue;
    const { qualifier, between, valueStart, rawValue } = tail;
    if (qualifier.some((qualifierWord) => otherThing.has(qualifierWord.toLowerCase())) || publicThai.test(between)) continue;
    if (valueStart === lastValueStart) continue; // `secret key:` read twice
    lastValueStart = valueStart;
    const value = trimmed(familyOf(word) === 'password' ? acrossAmpersands(text, valueStart, rawValue) : rawValue);
    if (value.length === 0) continue;
    const context = text.slice(Math.max(0, start - contextBefore), valueStart);
    let family = familyOf(word);
    if (family === 'key' && (start < match.index || qualifier.length > 0 || keyLabelNearby.test(text.slice(Math.max(0, match.index - 24), match.index)))) {
      family = 'secret';
    }
    const kind = labelledValueKind({ value, family, context });
    const end = valueStart + value.length;
    if (kind && !coveredByFormat(valueStart, end)) found.push({ start: valueStart, end, kind });
  }
  return found;
}
