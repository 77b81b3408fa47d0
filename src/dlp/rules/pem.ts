import { isPrivateKeyDer } from './private-key-der.js';
import { type CredentialRule, decodeBase64, lowerBefore, realRandom } from './rule.js';

// Private keys. A PEM `-----BEGIN … PRIVATE KEY-----` header is a key only when a key body follows it — also one
// cut off after its first line, after RFC 1421 header lines (`Proc-Type:`, `Version:`) or JSON `\n` escapes; the
// header named alone in prose ("the file should begin with `-----BEGIN OPENSSH PRIVATE KEY-----`") passes, and so
// does a body that decodes to text (a placeholder: base64 of the alphabet). A
// body without its armour is recognized by its content: base64 DER whose ASN.1 start is a private key's
// (private-key-der.ts; certificates and public keys pass), or the OpenSSH key magic. Also PuTTY key files and a
// base64-encoded PEM block (`LS0tLS1CRUdJT…`, as in Kubernetes secrets).

const minimumBody = 20;
const bodyWindow = 800;
const headerLine = /[A-Za-z][A-Za-z0-9-]{0,39}: ?[^\r\n\\]{0,200}/y;

function isBase64Character(code: number): boolean {
  // A-Z a-z 0-9 + / =
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 43 || code === 47 || code === 61;
}

/** Past whitespace and the `\n` / `\r` escapes of a string literal. */
function skipSpace(text: string, at: number): number {
  let position = at;
  for (;;) {
    const character = text[position];
    if (character === ' ' || character === '\t' || character === '\n' || character === '\r') position++;
    else if (character === '\\' && (text[position + 1] === 'n' || text[position + 1] === 'r')) position += 2;
    else return position;
  }
}

/** True when a key body (at least `minimumBody` random base64 characters) follows the header ending at `from`. */
function keyBodyFollows(text: string, from: number): boolean {
  const snippet = text.slice(from, from + bodyWindow);
  let position = skipSpace(snippet, 0);
  for (let lines = 0; lines < 4; lines++) {
    headerLine.lastIndex = position;
    if (!headerLine.test(snippet)) break;
    position = skipSpace(snippet, headerLine.lastIndex);
  }
  let end = position;
  while (end < snippet.length && isBase64Character(snippet.charCodeAt(end))) end++;
  const body = snippet.slice(position, end);
  return body.length >= minimumBody && realRandom(body) && !decodesToText(body);
}

/**
 * A key's bytes are binary from the start (DER's SEQUENCE, OpenSSH's magic and its NUL, a PGP packet tag): a body
 * whose first 24 bytes are all printable is base64 of words (`YWJjZGVm…`, a documentation placeholder). Random
 * bytes are all printable with a probability of about 5 × 10⁻¹¹.
 */
function decodesToText(body: string): boolean {
  const start = decodeBase64(body.slice(0, 32));
  return start.length >= 24 && start.every((byte) => (byte >= 32 && byte < 127) || byte === 9 || byte === 10 || byte === 13);
}

export const pemRules: readonly CredentialRule[] = [
  {
    kind: 'pem-private-key',
    literals: ['-----begin'],
    pattern: /-----BEGIN[ A-Z0-9]{0,40}PRIVATE ?KEY(?: BLOCK)?-----/gi,
    accept: (match, text) => keyBodyFollows(text, match.index + match[0].length),
  },
  {
    kind: 'pem-private-key',
    literals: ['putty-user-key-file-'],
    pattern: /PuTTY-User-Key-File-\d{1,2}: {0,4}[a-z0-9-]{3,40}/g,
    accept: () => true,
  },
  {
    // A base64-encoded PEM block ("-----BEGIN" → LS0tLS1CRUdJT…).
    kind: 'pem-private-key',
    literals: ['ls0tls1crudjt'],
    pattern: /(?<![A-Za-z0-9+/])LS0tLS1CRUdJT[A-Za-z0-9+/]{20,12000}={0,2}/g,
    accept: (match) => decodeBase64(match[0].slice(0, 160)).toString('latin1').includes('PRIVATE KEY'),
  },
  {
    // Base64 DER without armour: SEQUENCE with a long (MI[E-L]…) or short (M?…CAQ…: INTEGER first) length.
    kind: 'pem-private-key',
    literals: ['mi', 'caq'],
    pattern: /(?<![A-Za-z0-9+/])M(?:I[E-L]|[A-H][A-Za-z0-9+/]CAQ)[A-Za-z0-9+/]{56,8000}/g,
    // Inside an armoured block the header rule has it (and the log redactor redacts from the header to END).
    accept: (match, text) => !lowerBefore(match, text, 160).includes('private key-----') && isPrivateKeyDer(match[0]),
  },
  {
    // An OpenSSH private key's body without armour: base64 of its magic "openssh-key-v1\0".
    kind: 'pem-private-key',
    literals: ['b3blbnnzac1rzxktdje'],
    pattern: /(?<![A-Za-z0-9+/])b3BlbnNzaC1rZXktdjE[A-Za-z0-9+/]{40,8000}/g,
    accept: () => true,
  },
];
