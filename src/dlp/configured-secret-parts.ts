import { tokenRuns } from './released-fragments.js';

// Saeng's own secrets (a bot token, an API key, a password) must not leave in pieces either: "the first half of the
// token" now, the rest in the next answer or the one after. Any run of an answer that is a long enough piece of a
// configured secret — a quarter of it, at least 8 characters, with letters and digits (a random part, not a word the
// secret happens to contain) — blocks the answer. No memory across answers is needed: every piece is caught alone.
// URLs are left to the whole-value match (their host and path are not secret); their password is its own value.

const minimumPiece = 8;

function hasLettersAndDigits(text: string): boolean {
  return /[A-Za-z]/.test(text) && /\d/.test(text);
}

/** The shortest piece of `secret` that counts: a quarter of it, at least `minimumPiece`. */
function pieceLength(secret: string): number {
  return Math.max(minimumPiece, Math.ceil(secret.length / 4));
}

/** True when a run of `text` is a piece of one of `secrets` (whole secrets are the scanner's own match). */
export function releasesSecretPart(text: string, secrets: readonly string[]): boolean {
  const pieced = secrets.filter((secret) => secret.length >= minimumPiece && !secret.includes('://'));
  if (pieced.length === 0) return false;
  for (const run of tokenRuns(text)) {
    if (run.length < minimumPiece || !hasLettersAndDigits(run)) continue;
    for (const secret of pieced) {
      if (run.length >= pieceLength(secret) && secret.includes(run)) return true;
      // The piece may sit inside a longer run ("part2=abc…"): its first and last quarter-lengths.
      const length = pieceLength(secret);
      if (run.length <= length) continue;
      for (const end of [run.slice(0, length), run.slice(-length)]) if (hasLettersAndDigits(end) && secret.includes(end)) return true;
    }
  }
  return false;
}
