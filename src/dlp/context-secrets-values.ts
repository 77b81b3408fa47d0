import { isPlaceholderSecret, shannonEntropy } from './placeholder.js';

// The judgement of a value found right after a key-like label (context-secrets.ts): which credential it is, or
// none. A value passes when it is evidently not a secret: a reference (`$VAR`, `${…}`, `<…>`, `process.env.X`,
// a call), a path or URL, a version, a UUID, a number, a hash beside a hash label, Thai or other non-ASCII text, a
// word or a name made of words (`my-app-secret`, `ArrowUp`), a documentation placeholder.
//
// Passwords: a value of 8 to 128 characters with a letter and a digit or symbol, not a word, not a well-known
// placeholder (`changeme`, `password`, `P@ssw0rd`, `123456…`, anything with `your`/`example`/`xxx`). So
// `password=S3cr3t!Pass` is blocked, `password: <your password>`, `รหัสผ่าน: ********`, `password=changeme`
// and `password: hunter2` (too short to tell from a word) pass.
// Other secrets: 16 to 200 characters, letters and digits, not a placeholder (placeholder.ts), entropy of at
// least 3.5 bits per character (3.2 under 20 characters, 3 for hex). A bare `key:` label asks for more: 20 or
// more characters of both cases and digits, entropy 3.8, and never hex (cache keys, hashes).

export type LabelFamily = 'password' | 'secret' | 'token' | 'key';

export interface LabelledValue {
  value: string;
  family: LabelFamily;
  /** The label and up to 48 characters before it, as written (`LINE` is a vendor, `line` a word). */
  context: string;
}

const hex = /^[0-9a-fA-F]{1,200}$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const version = /^v?\d{1,6}(?:\.\d{1,6}){1,4}(?:[-+][A-Za-z0-9.]{1,20})?$/;
const awsSecretShape = /^[A-Za-z0-9/+]{40}$/;
const azureKeyShape = /^[A-Za-z0-9+/]{86}==$/;
const hashContext = /hash|sha-?\d|md5|checksum|digest|commit|etag|fingerprint|integrity/i;
const awsContext = /aws|amazon|คีย์ลับ|secret[ _-]?access/i;
const lineContext = /\bLINE\b|line[ _-]?(?:channel|bot|messaging)|channel[ _-]?(?:secret|ซีเคร)/i;
// Entra ID (Azure AD) app secrets: the older ones (32–34 characters, no `Q~`) are known only by this label.
const azureAppContext = /azure|entra|(?<![a-z])aad(?![a-z])|arm[ _-]client/i;
const twilioContext = /twilio|auth[ _-]?token/i;
const placeholderWords = /your|example|sample|dummy|placeholder|redacted|changeme|change_me|xxx|\*\*\*|\.\.\./i;
const knownPlaceholderPasswords = new Set([
  'password',
  'password1',
  'password12',
  'password123',
  'password!',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword',
  'pa$$w0rd',
  'changeme',
  'changeit',
  'letmein1',
  'admin123',
  'qwerty123',
  'secret123',
  'mypassword',
  'yourpassword',
]);
// A name made of words: each part a lower-case, capitalized or upper-case word, or a short number.
const wordPart = /^(?:[a-z]{1,24}|[A-Z][a-z]{1,24}|[A-Z]{1,12}|\d{1,8}|[a-z]{1,3}\d{1,4})$/; // `v2`, `s3` too
const partSeparators = /[-_.:/]/;

function isAscii(value: string): boolean {
  return /^[!-~]+$/.test(value);
}

/**
 * `$VAR`, `${VAR}`, `$(cmd)`, `%VAR%`, `{{ x }}`, `[REDACTED]`, `(optional)`, `getenv("X")`, a URL, a path. A `$` or
 * `%` before a digit or a symbol names no variable: `$3287.nairuD` is a password (written backwards).
 */
function isReferenceOrPath(value: string): boolean {
  if (/^(?:\$[A-Za-z_{(]|%[A-Za-z_]|[{[(])/.test(value) || /[([{]/.test(value) || value.includes('://')) return true;
  // Padded base64 that happens to start with `/` (a WireGuard key, 1 in 64) is no path.
  if (/^[A-Za-z0-9+/]{20,200}={1,2}$/.test(value)) return false;
  return /^(?:\/|~\/|\.\.?\/|[A-Za-z]:\\)/.test(value);
}

function isMadeOfWords(value: string): boolean {
  return value.split(partSeparators).every((part) => part === '' || wordPart.test(part));
}

function hasRepeat(value: string, length: number): boolean {
  let same = 1;
  for (let index = 1; index < value.length; index++) {
    same = value[index] === value[index - 1] ? same + 1 : 1;
    if (same >= length) return true;
  }
  return false;
}

function isPlainValue(value: string): boolean {
  return !isAscii(value) || isReferenceOrPath(value) || version.test(value) || uuid.test(value) || placeholderWords.test(value) || isMadeOfWords(value);
}

/**
 * Words joined name a setting (`db_password_v2`) — unless one part is a number of 3 or more digits: `Somchai_6952`,
 * `Tiger_8292` are the memorable passwords people choose.
 */
function isPlainPassword(value: string): boolean {
  if (!isAscii(value) || isReferenceOrPath(value) || version.test(value) || uuid.test(value) || placeholderWords.test(value)) return true;
  return isMadeOfWords(value) && !value.split(partSeparators).some((part) => /^\d{3,8}$/.test(part));
}

function passwordKind(value: string): string | undefined {
  if (value.length < 8 || value.length > 128 || isPlainPassword(value)) return undefined;
  // `admin123`, `user2024`, `test1234`: a lower-case word and a number, the shape of example passwords.
  const bare = value.toLowerCase().replace(/[-_.]/g, '');
  if (knownPlaceholderPasswords.has(bare) || /^[a-z]{0,8}\d{1,8}$/.test(value)) return undefined;
  if (!/[A-Za-z]/.test(value) || !/[^A-Za-z]/.test(value)) return undefined;
  if (hasRepeat(value, 4) || new Set(value).size < 5) return undefined;
  return 'password-assignment';
}

function secretKind(value: string, family: LabelFamily): string | undefined {
  if (value.length < 16 || value.length > 200 || isPlainValue(value)) return undefined;
  if (!/[A-Za-z]/.test(value) || !/\d/.test(value) || isPlaceholderSecret(value)) return undefined;
  const entropy = shannonEntropy(value);
  if (hex.test(value)) return family !== 'key' && entropy >= 3 ? 'secret-assignment' : undefined;
  if (family === 'key') {
    const mixed = /[a-z]/.test(value) && /[A-Z]/.test(value);
    return value.length >= 20 && mixed && entropy >= 3.8 ? 'secret-assignment' : undefined;
  }
  return entropy >= (value.length >= 20 ? 3.5 : 3.2) ? 'secret-assignment' : undefined;
}

function isAwsSecret(value: string): boolean {
  return (
    awsSecretShape.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value) && /\d/.test(value) && shannonEntropy(value) >= 4 && !isPlaceholderSecret(value)
  );
}

/** The kind of credential a labelled value is, or undefined when it passes. */
export function labelledValueKind({ value, family, context }: LabelledValue): string | undefined {
  if (hex.test(value) && hashContext.test(context)) return undefined;
  // 64 random bytes in base64 (88 characters, `==`): the shape of an Azure storage key, whatever the label says.
  if (azureKeyShape.test(value) && !isPlaceholderSecret(value)) return 'azure-storage-key';
  if (isAwsSecret(value)) {
    if (family === 'password') return 'password-assignment';
    return family === 'token' && !awsContext.test(context) ? 'secret-assignment' : 'aws-secret-key';
  }
  if (/^[0-9a-f]{32}$/i.test(value) && /[a-f]/i.test(value) && /\d/.test(value) && shannonEntropy(value) >= 3) {
    if (lineContext.test(context)) return 'line-channel-secret';
    if (twilioContext.test(context)) return 'twilio-key';
  }
  if (family === 'password') return passwordKind(value);
  const kind = secretKind(value, family);
  return kind && family !== 'key' && value.length >= 32 && value.length <= 34 && azureAppContext.test(context) ? 'azure-client-secret' : kind;
}
