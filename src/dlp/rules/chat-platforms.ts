import { shannonEntropy } from '../placeholder.js';
import { type CredentialRule, decodeBase64, hasMixedClasses, realRandom } from './rule.js';

// The credentials of the platforms Saeng runs on.
// Discord bot token: base64 of the bot's numeric user id (a 17–20 digit snowflake), a 6-character timestamp and a
// 27–38 character HMAC, joined by dots; the first part must decode to the digits of a snowflake.
// LINE long-lived channel access token: ~172 characters of standard base64 (with + and /) ending in `=`, no
// prefix; judged by structure (length, padding, alphabet) and by the randomness of its bytes. (LINE's short-lived
// and v2.1 tokens are JWTs: see jwt.ts. Channel secrets are 32 unlabelled hex digits: context detection.)
// Discord webhook URL: `https://discord.com/api/webhooks/<webhook id>/<token>` (Discord developer docs, Webhook
// resource), also on discordapp.com and the canary/ptb hosts and with an API version (`/api/v10/webhooks/`); the id
// is a 17–20 digit snowflake, the token 68 base64url characters (60 to 68 accepted). Whoever has the URL can post.
// Telegram bot token: the bot id (8–11 digits; ids have grown past 10 digits' range) `:` then 33–36 base64url
// characters starting with A (35 in practice).

// base64 of a digit: the first two characters of a snowflake's encoding (`1…` → MT, `2…` → Mj, `4…` → ND, …).
const snowflakeStarts = ['mt', 'mj', 'mz', 'nd', 'nt', 'nj', 'nz', 'od', 'ot'];

function decodesToSnowflake(part: string): boolean {
  return /^[1-9]\d{16,19}$/.test(decodeBase64(part).toString('latin1'));
}

/** Share of the bytes that are printable ASCII: about 0.37 for random bytes, near 1 for base64 of text. */
function printableShare(bytes: Buffer): number {
  let printable = 0;
  for (const byte of bytes) if (byte >= 0x20 && byte < 0x7f) printable++;
  return bytes.length === 0 ? 1 : printable / bytes.length;
}

/** An ASN.1 SEQUENCE whose length is the whole buffer: a public key or certificate body, not a LINE token. */
function isDerSequence(bytes: Buffer): boolean {
  if (bytes[0] !== 0x30) return false;
  const first = bytes[1] ?? 0;
  if (first < 0x80) return first + 2 === bytes.length;
  if (first === 0x81) return (bytes[2] ?? 0) + 3 === bytes.length;
  return first === 0x82 && bytes.readUInt16BE(2) + 4 === bytes.length;
}

export const chatPlatformRules: readonly CredentialRule[] = [
  {
    kind: 'discord-bot-token',
    literals: snowflakeStarts,
    pattern: /(?<![A-Za-z0-9_.-])[MNO][A-Za-z0-9_-]{22,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}(?![A-Za-z0-9_.-])/g,
    accept: (match) => {
      const [id = '', timestamp = '', hmac = ''] = match[0].split('.');
      return decodesToSnowflake(id) && realRandom(timestamp + hmac) && /[A-Za-z]/.test(hmac);
    },
  },
  {
    kind: 'discord-webhook',
    literals: ['discord.com/api/', 'discordapp.com/api/'],
    pattern: /(?<![A-Za-z0-9-])discord(?:app)?\.com\/api\/(?:v\d{1,2}\/)?webhooks\/\d{17,20}\/[A-Za-z0-9_-]{60,68}(?![A-Za-z0-9_-])/g,
    accept: (match) => realRandom(match[0].slice(match[0].lastIndexOf('/') + 1)),
  },
  {
    kind: 'line-channel-access-token',
    literals: ['='],
    pattern: /(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{150,250}={1,2}(?![A-Za-z0-9+/=])/g,
    accept: (match) => {
      const token = match[0];
      if (token.length % 4 !== 0 || !hasMixedClasses(token) || !/[+/]/.test(token)) return false;
      if (!realRandom(token) || shannonEntropy(token) < 5.2) return false;
      const bytes = decodeBase64(token);
      return printableShare(bytes) < 0.6 && !isDerSequence(bytes);
    },
  },
  {
    kind: 'telegram-bot-token',
    literals: [':a'],
    // Also glued to "bot" as in the Bot API's own URLs (https://api.telegram.org/bot<token>/getMe).
    pattern: /(?:(?<=bot)|(?<![A-Za-z0-9_:]))\d{8,11}:A[A-Za-z0-9_-]{32,35}(?![A-Za-z0-9_-])/g,
    accept: (match) => realRandom(match[0].slice(match[0].indexOf(':') + 1)),
  },
];
