import { credentialRules } from './credential-rules.js';
import { isPasswordPart, passwordPartsToRemember, passwordRests } from './released-password-parts.js';
import { scanForCredentials } from './scan.js';

// A credential split over two answers ("send the first half now, the rest next time"): each half passes the
// scanner on its own. So what an answer released that could start a credential — a run holding a rule's prefix
// (`ghp_…`, `xoxb-…`, `AKIA…`, `postgres://…`) — is remembered per conversation (a few runs, bounded, never whole
// answers), and the next answer's runs are scanned joined onto them. A configured secret needs no memory: any long
// enough piece of it is blocked in every answer (configured-secret-parts.ts).

/** Characters a token, a key or a connection URL is written in (Thai, spaces and brackets end a run). */
function isRunCharacter(code: number): boolean {
  return (
    (code >= 48 && code <= 58) || // 0-9 :
    (code >= 64 && code <= 90) || // @ A-Z
    (code >= 97 && code <= 122) || // a-z
    code === 43 || // +
    code === 45 || // -
    code === 46 || // .
    code === 47 || // /
    code === 61 || // =
    code === 95 || // _
    code === 126 // ~
  );
}

const minimumRun = 4;
const maximumRun = 160;
/** Runs of one answer looked at: the work is bounded whatever the answer's length. */
const maximumRunsPerText = 400;
export const releasedLimits = { runs: 20, runChars: maximumRun };

/** The runs of token characters in `text`, in order, at most `maximumRunsPerText`, each cut to `maximumRun`. */
export function tokenRuns(text: string): string[] {
  const runs: string[] = [];
  let start = -1;
  for (let index = 0; index <= text.length && runs.length < maximumRunsPerText; index++) {
    const inRun = index < text.length && isRunCharacter(text.charCodeAt(index));
    if (inRun && start < 0) start = index;
    if (!inRun && start >= 0) {
      // A sentence's full stop or colon after a token is not part of it.
      let end = index;
      while (end > start && (text[end - 1] === '.' || text[end - 1] === ':')) end--;
      if (end - start >= minimumRun) runs.push(text.slice(start, Math.min(end, start + maximumRun)));
      start = -1;
    }
  }
  return runs;
}

// The rules' prefilter literals that name a credential's start; the shortest and the plain words (`aws`, `secret`)
// would keep half of every technical answer.
const generic = new Set(['aws', 'secret', 'storage', 'azure', 'accountkey', 'account_key']);
const startLiterals = [...new Set(credentialRules.flatMap((rule) => rule.literals))].filter(
  (literal) => literal.length >= 3 && /[a-z].*[a-z]/.test(literal) && !generic.has(literal),
);

/** A Telegram bot token's start (`123456789:AA…`): its rule's literal (`:a`) is too short to pick runs by. */
const telegramStart = /^\d{6,12}:A/;

function mayStartCredential(run: string): boolean {
  const lower = run.toLowerCase();
  return telegramStart.test(run) || startLiterals.some((literal) => lower.includes(literal));
}

/**
 * A run that could be a credential's rest: token characters only (no `.`, `:` or `@`: not an address, a version or a
 * URL), with letters and digits, long enough to matter.
 */
function mayCompleteCredential(run: string): boolean {
  return run.length >= 6 && /^[A-Za-z0-9_+/=-]+$/.test(run) && /[A-Za-z]/.test(run) && /\d/.test(run);
}

// Lines that show a public key (an `authorized_keys` line, WireGuard's `PublicKey =`): public by design, and a long
// base64 run — joined onto a token's first half an earlier answer released, it would complete any loose shape.
const publicKeyLine =
  /^[ \t>`*-]{0,8}(?:(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d{3}|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)[ \t]+AAAA|publickey[ \t]{0,4}=)/i;
const maximumLineChars = 4_096;

/** `text` without its public-key lines (a line too long to look at is kept). */
function withoutPublicKeyLines(text: string): string {
  return text
    .split('\n')
    .filter((line) => line.length > maximumLineChars || !publicKeyLine.test(line))
    .join('\n');
}

/** What to remember of an answer that was sent: its runs that may start a credential, the newest last. */
export function runsToRemember(text: string): string[] {
  const parts = passwordPartsToRemember(text).filter((part) => part.length <= maximumRun);
  return [...tokenRuns(text).filter(mayStartCredential), ...parts].slice(-releasedLimits.runs);
}

/** Whether `text` has a run that could complete a credential: only then is the conversation's record worth reading. */
export function mayCompleteOne(text: string): boolean {
  return tokenRuns(text).some(mayCompleteCredential) || passwordRests(text).length > 0;
}

/**
 * The kinds a credential would have if this answer completed one an earlier answer started: every remembered run
 * joined with each run of the new text, scanned by format. Empty when nothing was remembered (the usual case).
 */
export function crossTurnKinds(earlier: readonly string[], text: string): string[] {
  if (earlier.length === 0) return [];
  const shown = withoutPublicKeyLines(text);
  const runs = tokenRuns(shown).filter(mayCompleteCredential);
  const rests = earlier.some(isPasswordPart) ? passwordRests(shown) : [];
  if (runs.length === 0 && rests.length === 0) return [];
  const joined = earlier.flatMap((start) => (isPasswordPart(start) ? rests : runs).map((rest) => `${start}${rest}`)).join('\n');
  const scan = scanForCredentials(joined);
  // A run that is a credential on its own is the ordinary scan's to report (and was already sent, or is blocked now).
  return scan.found ? scan.kinds : [];
}
