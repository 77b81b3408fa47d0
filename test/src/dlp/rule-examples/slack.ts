import { randomText } from '../../../support/fake-tokens.js';
import { alphabets, base62, type KindExamples } from './examples.js';

const digits = (length: number, seed: number) => `${1 + (seed % 9)}${randomText(length - 1, seed, alphabets.digits)}`;
const hex = (length: number, seed: number) => randomText(length, seed, alphabets.hex);

export const slackExamples: KindExamples[] = [
  {
    kind: 'slack-token',
    positives: [
      { name: 'bot token', make: (seed) => `SLACK_BOT_TOKEN=xoxb-${digits(12, seed)}-${digits(13, seed + 1)}-${base62(24, seed + 2)}` },
      { name: 'user token', make: (seed) => `xoxp-${digits(12, seed + 3)}-${digits(12, seed + 4)}-${digits(13, seed + 5)}-${hex(32, seed + 6)}` },
      { name: 'configuration token (user)', make: (seed) => `xoxe.xoxp-1-${base62(150, seed + 7)}` },
      { name: 'configuration token (bot)', make: (seed) => `xoxe.xoxb-1-${base62(150, seed + 8)}` },
      { name: 'configuration refresh token', make: (seed) => `xoxe-1-${base62(140, seed + 9)}` },
      {
        name: 'legacy token, short last segment',
        make: (seed) => `xoxs-${digits(10, seed + 10)}-${digits(10, seed + 11)}-${digits(10, seed + 12)}-${hex(10, seed + 13)}`,
      },
      {
        name: 'app-level token',
        make: (seed) => `xapp-1-A${randomText(10, seed + 14, alphabets.base32)}-${digits(13, seed + 15)}-${hex(64, seed + 16)}`,
      },
      { name: 'app-level token, older shape', make: (seed) => `xapp-${digits(11, seed + 17)}-${base62(32, seed + 18)}` },
    ],
    negatives: [
      { name: 'all-x placeholder', text: 'SLACK_BOT_TOKEN=xoxb-xxxxxxxxxxxx-xxxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx' },
      { name: 'short fake token', text: 'xoxb-1234-abcd' },
      { name: 'image URL with xoxo', text: 'https://cdn.example.com/img/xoxo-gossip-girl-season-finale-poster.jpg' },
      { name: 'prefix in prose', text: 'Slack bot tokens begin with xoxb- and user tokens with xoxp-' },
    ],
  },
  {
    kind: 'slack-webhook',
    positives: [
      {
        name: 'incoming webhook',
        make: (seed) =>
          `https://hooks.slack.com/services/T${randomText(8, seed, alphabets.base32)}/B${randomText(8, seed + 1, alphabets.base32)}/${base62(24, seed + 2)}`,
      },
      {
        name: 'workflow webhook',
        make: (seed) =>
          `https://hooks.slack.com/workflows/T${randomText(8, seed + 3, alphabets.base32)}/A${base62(10, seed + 4)}/${digits(18, seed + 5)}/${base62(24, seed + 6)}`,
      },
    ],
    negatives: [
      { name: 'documentation webhook', text: 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX' },
      { name: 'the host alone', text: 'post to hooks.slack.com/services/ with your own path' },
    ],
  },
];
