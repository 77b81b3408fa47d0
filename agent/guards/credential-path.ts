import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

// Credential-path guard (before a file tool touches a path). The requested path is canonicalized first —
// URL-decoding, `file://`, Windows `\` and `\\?\` prefixes, `~` and home variables, `..`, symlinks (the real
// path of the deepest existing ancestor) — and refused when any spelling of it falls under a credential location
// (case-insensitive, as on macOS and Windows file systems) or outside the sandbox. After
// anthropics/sandbox-runtime: match the canonical path, never the string the model typed.

export type PathCheck = { ok: true; resolved: string } | { ok: false; reason: string };

const maxPathLength = 1024;
const credentialDirectories = new Set(['.ssh', '.aws', '.gnupg', '.azure']);
const credentialFiles = new Set(['.netrc', '_netrc', '.npmrc', '.git-credentials', '.pgpass', '.pypirc']);
const keyFilePrefixes = ['id_rsa', 'id_ed25519', 'id_ecdsa', 'id_dsa'];
const keyExtensions = new Set(['.pem', '.key', '.p12', '.pfx', '.ppk', '.jks', '.keystore']);
/** Consecutive segments that mark a credential location (browser profiles, cloud CLIs, kube/docker configs). */
const credentialSequences = [
  ['.config', 'gcloud'],
  ['.kube', 'config'],
  ['.docker', 'config.json'],
  ['google', 'chrome'],
  ['google-chrome'],
  ['chromium'],
  ['microsoft', 'edge'],
  ['microsoft-edge'],
  ['bravesoftware'],
  ['brave-browser'],
  ['mozilla', 'firefox'],
  ['.mozilla'],
  ['firefox', 'profiles'],
  ['library', 'keychains'],
];

function credentialReason(absolute: string): string | undefined {
  const segments = absolute.toLowerCase().split('/').filter(Boolean);
  for (const [index, segment] of segments.entries()) {
    if (credentialDirectories.has(segment)) return `credential location (${segment})`;
    if (credentialFiles.has(segment)) return `credential file (${segment})`;
    if (segment.startsWith('.env') && segment !== '.env.example') return 'credential file (.env)';
    if (keyFilePrefixes.some((prefix) => segment.startsWith(prefix))) return 'private key file';
    if (keyExtensions.has(path.extname(segment))) return `key file (${path.extname(segment)})`;
    const sequence = credentialSequences.find((parts) => parts.every((part, offset) => segments[index + offset] === part));
    if (sequence) return `credential location (${sequence.join('/')})`;
  }
  return undefined;
}

/** `%41` → `A`, up to three layers deep (`%252e` → `%2e` → `.`); undefined when malformed. */
function decodeLayers(text: string): string | undefined {
  let current = text;
  for (let layer = 0; layer < 3 && /%[0-9a-f]{2}/i.test(current); layer++) {
    try {
      current = decodeURIComponent(current);
    } catch {
      return undefined;
    }
  }
  return current;
}

function expandHome(text: string): string {
  const home = homedir().split(path.sep).join('/');
  return text
    .replace(/^~(?=\/|$)/, home)
    .replace(/^(?:\$HOME|\$\{HOME\}|%USERPROFILE%|%HOMEPATH%)(?=\/|$)/i, home)
    .replace(/^%APPDATA%(?=\/|$)/i, `${home}/AppData/Roaming`)
    .replace(/^%LOCALAPPDATA%(?=\/|$)/i, `${home}/AppData/Local`);
}

/** The real path of the deepest existing ancestor, with the rest appended (the path need not exist yet). */
export function realPathOf(absolute: string): string {
  let existing = absolute;
  const rest: string[] = [];
  while (!existsSync(existing)) {
    const parent = path.dirname(existing);
    if (parent === existing) break;
    rest.unshift(path.basename(existing));
    existing = parent;
  }
  let real = existing;
  try {
    real = realpathSync.native(existing);
  } catch {
    // Unreadable ancestor: keep the lexical form; the containment check below still applies.
  }
  return path.join(real, ...rest);
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  const escapes = relative === '..' || relative.startsWith(`..${path.sep}`);
  return relative === '' || (!escapes && !path.isAbsolute(relative)); // "...notes" is a name, not ".."
}

export function checkPath(requested: string, sandboxRoot: string): PathCheck {
  if (requested.length === 0 || requested.length > maxPathLength || /\p{Cc}/u.test(requested)) return { ok: false, reason: 'invalid path' };
  const decoded = decodeLayers(requested.trim().replace(/^file:\/\//i, ''));
  if (decoded === undefined || /\p{Cc}/u.test(decoded)) return { ok: false, reason: 'invalid path encoding' };
  const slashed = decoded
    .normalize('NFC')
    .replace(/\\/g, '/')
    .replace(/^\/\/[?.]\//, '');
  if (/^[a-z]:\//i.test(slashed) || slashed.startsWith('//')) {
    return { ok: false, reason: credentialReason(slashed) ?? 'outside the sandbox (Windows or network path)' };
  }
  const lexical = path.resolve(sandboxRoot, expandHome(slashed));
  const real = realPathOf(lexical);
  const root = realPathOf(path.resolve(sandboxRoot));
  if (!isInside(root, real)) {
    return { ok: false, reason: credentialReason(slashed) ?? credentialReason(real) ?? 'outside the sandbox' };
  }
  // Inside the sandbox only the part below its root is judged (the root's own location is configuration).
  const reason = credentialReason(slashed) ?? credentialReason(path.relative(root, real).split(path.sep).join('/'));
  return reason ? { ok: false, reason } : { ok: true, resolved: real };
}
