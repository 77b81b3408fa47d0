import { shannonEntropy } from '../placeholder.js';
import { type CredentialRule, randomKeyBody, realRandom } from './rule.js';

// Twilio API keys (`SK` + 32 hex) and auth tokens (32 lower-case hex, no prefix: blocked beside an account SID
// `AC` + 32 hex or the word Twilio; a labelled one is also found by context detection), SendGrid API keys
// (`SG.` + 22 + `.` + 43 base64url), Stripe secret and restricted keys, live and test (`sk_live_`, `sk_test_`,
// `rk_live_`, `rk_test_` + 24 to 247 base62) and Stripe webhook signing secrets (`whsec_` + 32 or more base62).

const twilioAccountSid = /(?<![A-Za-z0-9])AC[0-9a-f]{32}(?![A-Za-z0-9])/;
const hashLabelBefore = /(?:md5|sha-?\d{0,3}|etag|checksum|digest|hash|commit|fingerprint|integrity)[^\n]{0,24}$/i;

/** An account SID or the word Twilio within 200 characters of the candidate, and no hash label right before it. */
function twilioContext(match: RegExpExecArray, text: string): boolean {
  const before = text.slice(Math.max(0, match.index - 200), match.index);
  const after = text.slice(match.index + match[0].length, match.index + match[0].length + 200);
  if (hashLabelBefore.test(before)) return false;
  return /twilio/i.test(before) || /twilio/i.test(after) || twilioAccountSid.test(before) || twilioAccountSid.test(after);
}

export const messagingPaymentRules: readonly CredentialRule[] = [
  {
    kind: 'twilio-key',
    literals: ['sk'],
    pattern: /(?<![A-Za-z0-9_])SK[0-9a-fA-F]{32}(?![A-Za-z0-9_])/g,
    accept: (match) => randomKeyBody(match[0].slice(2), 3.2),
  },
  {
    kind: 'twilio-key',
    literals: ['twilio', 'ac'],
    // The word or an account SID within 200 characters either side of the 32 characters.
    near: { clues: [/twilio/gi, new RegExp(twilioAccountSid.source, 'g')], reach: 280 },
    pattern: /(?<![A-Za-z0-9])[0-9a-f]{32}(?![A-Za-z0-9])/g,
    accept: (match, text) =>
      /[a-f]/.test(match[0]) && /\d/.test(match[0]) && shannonEntropy(match[0]) >= 3 && realRandom(match[0]) && twilioContext(match, text),
  },
  {
    kind: 'sendgrid-key',
    literals: ['sg.'],
    pattern: /(?<![A-Za-z0-9_.-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_.-])/g,
    accept: (match) => realRandom(match[0].slice(3)),
  },
  {
    kind: 'stripe-key',
    literals: ['_live_', '_test_'],
    pattern: /(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{20,247}(?![A-Za-z0-9_])/g,
    accept: (match) => realRandom(match[0].slice(8)),
  },
  {
    kind: 'stripe-key',
    literals: ['whsec_'],
    pattern: /(?<![A-Za-z0-9_])whsec_[A-Za-z0-9]{32,128}(?![A-Za-z0-9_])/g,
    accept: (match) => realRandom(match[0].slice(6)),
  },
];
