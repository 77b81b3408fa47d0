import { credentialRules } from './credential-rules.js';
import { type Edit, maximumEdits } from './normalize-fragments.js';

// A token written backwards (`…cba_phg`, `…AIKA`, `…//:sergtsop`): a run of token characters that ends with the
// reverse of a known prefix is read reversed. The prefixes are the rules' own literals (rules/*.ts) of two or more
// characters, and the starts of tokens whose rule has no literal of that kind (Stripe's `sk_`, a JWT's `eyJ`, a URL's scheme, a DER
// key's `MII`, an Azure connection string). A Telegram token reversed ends with `A:` and the bot id; a few kinds are
// known by their whole shape reversed (reversedShapes).

/** How much of a run's end is compared with the reversed prefixes. */
const tailLength = 32;

const extraPrefixes = ['sk_', 'rk_', 'pk_', 'eyj', 'mii', 'http', 'https', 'ftp', 'defaultendpointsprotocol=', 'endpoint=', 'blobendpoint='];

const literals = [...new Set([...credentialRules.flatMap((rule) => rule.literals), ...extraPrefixes])].map((literal) => [...literal].reverse().join(''));
const reversedPrefixes = literals.filter((literal) => literal.length >= 3);
// `mt`, `od`… (a Discord token's base64 snowflake) and Twilio's `SK` are so short that many runs end with one
// (`thanks`, a JWT): only with the whole token's shape reversed.
const reversedShortPrefixes = literals.filter((literal) => literal.length === 2);
/**
 * Tokens whose prefix is short or inside them, by their whole shape reversed: a Twilio API key (`SK` + 32 hex) or
 * account SID with its auth token (`AC…:…`), an Entra ID client secret (`Q~` after its fourth character), an Azure
 * DevOps PAT (`JQQJ9` and `AZDO` inside it), and a run holding a reversed password label (`…=drowssaP;…`, a
 * connection string written backwards), which the label search then reads.
 */
const reversedShapes = [
  /^[0-9a-fA-F]{32}(?:KS|:[0-9a-fA-F]{32}CA)$/,
  /^[A-Za-z0-9_~.-]{31,34}~Q\d[A-Za-z0-9_~.-]{3}$/,
  /^[A-Za-z0-9]{4}ODZA[A-Za-z0-9]{16}[A-L][A-Za-z0-9][9DH]9JQQJ[A-Za-z0-9]{52}$/,
  /=(?:drowssap|dwp)(?![A-Za-z0-9])/i,
];
// By their last two characters: most runs end with two no prefix ends with, and are done after one lookup.
const reversedPrefixesByEnd = new Map<string, string[]>();
for (const prefix of reversedPrefixes) {
  const end = prefix.slice(-2);
  reversedPrefixesByEnd.set(end, [...(reversedPrefixesByEnd.get(end) ?? []), prefix]);
}
/** A reversed Discord token's shortest length: 27 + 6 + 22 characters and two dots. */
const shortestDiscordToken = 57;

/** A Discord bot token reversed: HMAC, the 6-character timestamp, then the snowflake's base64 ending `TM`, `DO`… */
function isReversedDiscord(run: string): boolean {
  if (run.length < shortestDiscordToken || !run.includes('.')) return false;
  const parts = run.split('.');
  return parts.length === 3 && parts[1]?.length === 6 && reversedShortPrefixes.some((prefix) => parts[2]?.toLowerCase().endsWith(prefix));
}

// The reversed end of a Telegram bot token: `…A:` then the 8 to 11 digits of the bot id, reversed.
const reversedTelegram = /A:\d{8,11}$/;

function reverse(text: string): string {
  let out = '';
  for (let index = text.length - 1; index >= 0; index--) out += text[index];
  return out;
}

function endsReversed(run: string): boolean {
  const prefixes = reversedPrefixesByEnd.get(run.slice(-2).toLowerCase());
  if (prefixes) {
    const tail = run.slice(-tailLength).toLowerCase();
    if (prefixes.some((prefix) => tail.endsWith(prefix))) return true;
  }
  const last = run.charCodeAt(run.length - 1);
  if (last >= 48 && last <= 57 && reversedTelegram.test(run.slice(-tailLength))) return true;
  return isReversedDiscord(run) || reversedShapes.some((shape) => shape.test(run));
}

/** A sentence's punctuation after a run (`…AIKA.`), which is not the reversed token's first character. */
function trimmedEnd(text: string, start: number, end: number): number {
  let trimmed = end;
  while (trimmed > start && end - trimmed < 3 && /[.,;:!?)\]}>]/.test(text[trimmed - 1] ?? '')) trimmed--;
  return trimmed;
}

// Runs of printable ASCII without spaces or quotes, 16 characters or more (a token's run: up to 12,000), found
// natively.
const runs = /[!#-&(-_a-~]{16,}/g;
const maximumRun = 12_000;

export function reversedEdits(text: string): Edit[] {
  const edits: Edit[] = [];
  runs.lastIndex = 0;
  for (let match = runs.exec(text); match !== null && edits.length < maximumEdits; match = runs.exec(text)) {
    if (match[0].length > maximumRun) continue;
    const start = match.index;
    const runEnd = start + match[0].length;
    const trimmed = trimmedEnd(text, start, runEnd);
    for (const end of trimmed === runEnd ? [runEnd] : [runEnd, trimmed]) {
      const run = text.slice(start, end);
      if (!endsReversed(run)) continue;
      edits.push({ start, end, replacement: reverse(run) });
      break;
    }
  }
  return edits;
}

/** A configured secret's exact value, and the same written backwards. */
export function secretVariants(secret: string): string[] {
  return [secret, reverse(secret)];
}
