import { type CredentialRule, randomKeyBody, realRandom } from './rule.js';

// Twilio API keys (`SK` + 32 hex; auth tokens are 32 unlabelled hex digits: context detection), SendGrid API keys
// (`SG.` + 22 + `.` + 43 base64url), Stripe secret and restricted keys, live and test (`sk_live_`, `sk_test_`,
// `rk_live_`, `rk_test_` + 24 to 247 base62) and Stripe webhook signing secrets (`whsec_` + 32 or more base62).

export const messagingPaymentRules: readonly CredentialRule[] = [
  {
    kind: 'twilio-key',
    literals: ['sk'],
    pattern: /(?<![A-Za-z0-9_])SK[0-9a-fA-F]{32}(?![A-Za-z0-9_])/g,
    accept: (match) => randomKeyBody(match[0].slice(2), 3.2),
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
