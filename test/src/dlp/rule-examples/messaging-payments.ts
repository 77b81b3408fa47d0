import { randomText } from '../../../support/fake-tokens.js';
import { alphabets, base62, type KindExamples } from './examples.js';

const url64 = (length: number, seed: number) => randomText(length, seed, alphabets.base64url);

export const messagingPaymentExamples: KindExamples[] = [
  {
    kind: 'twilio-key',
    positives: [
      { name: 'API key SID', make: (seed) => `TWILIO_API_KEY=SK${randomText(32, seed, alphabets.hex)}` },
      { name: 'in a client call', make: (seed) => `twilio(apiKey, secret) where apiKey = "SK${randomText(32, seed + 1, alphabets.hex)}"` },
      {
        name: 'auth token after its account SID (curl -u)',
        make: (seed) =>
          `curl -u AC${randomText(32, seed + 2, alphabets.hex)}:${randomText(32, seed + 3, alphabets.hex)} https://api.twilio.com/2010-04-01/Accounts.json`,
      },
      {
        name: 'auth token in a client call',
        make: (seed) => `client = Client("AC${randomText(32, seed + 4, alphabets.hex)}", "${randomText(32, seed + 5, alphabets.hex)}")`,
      },
      { name: 'auth token beside the word Twilio', make: (seed) => `Twilio: ${randomText(32, seed + 6, alphabets.hex)}` },
    ],
    negatives: [
      { name: 'zeros', text: `SK${'0'.repeat(32)}` },
      { name: 'one character short', text: `SK${randomText(31, 2, alphabets.hex)}` },
      { name: 'inside a word', text: `DISK${randomText(32, 3, alphabets.hex)}` },
      { name: 'account SID (not secret)', text: `AC${randomText(32, 4, alphabets.hex)}` },
      { name: 'a package digest beside Twilio', text: `twilio-9.0.0.tar.gz md5: ${randomText(32, 5, alphabets.hex)}` },
      { name: '32 hex without an account SID or Twilio', text: `request ${randomText(32, 6, alphabets.hex)} done` },
    ],
  },
  {
    kind: 'sendgrid-key',
    positives: [
      { name: 'environment variable', make: (seed) => `SENDGRID_API_KEY=SG.${url64(22, seed)}.${url64(43, seed + 1)}` },
      { name: 'Authorization header', make: (seed) => `Authorization: Bearer SG.${url64(22, seed + 2)}.${url64(43, seed + 3)}` },
    ],
    negatives: [
      { name: 'placeholder', text: 'SENDGRID_API_KEY=SG.xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' },
      { name: 'wrong lengths', text: `SG.${url64(10, 4)}.${url64(20, 5)}` },
      { name: 'Singapore abbreviation', text: 'SG. Singapore, TH. Thailand' },
    ],
  },
  {
    kind: 'stripe-key',
    positives: [
      { name: 'live secret key', make: (seed) => `STRIPE_SECRET_KEY=sk_live_51${base62(97, seed)}` },
      { name: 'test secret key', make: (seed) => `sk_test_${base62(24, seed + 1)}` },
      { name: 'live restricted key', make: (seed) => `rk_live_${base62(99, seed + 2)}` },
      { name: 'test restricted key', make: (seed) => `rk_test_${base62(24, seed + 3)}` },
      { name: 'webhook signing secret', make: (seed) => `STRIPE_WEBHOOK_SECRET=whsec_${base62(32, seed + 4)}` },
    ],
    negatives: [
      { name: 'AAAA placeholder', text: 'STRIPE_SECRET_KEY=sk_live_AAAAAAAAAAAAAAAAAAAAAAAA' },
      { name: 'x placeholder', text: 'sk_test_xxxxxxxxxxxxxxxxxxxxxxxx' },
      { name: 'publishable key (not secret)', text: `pk_live_${base62(24, 6)}` },
      { name: 'too short', text: `sk_live_${base62(12, 7)}` },
      { name: 'function name', text: 'def risk_test_results(): pass' },
    ],
  },
];
