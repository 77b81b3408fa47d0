import { randomText } from '../../../support/fake-tokens.js';
import { alphabets, type KindExamples } from './examples.js';

const url64 = (length: number, seed: number) => randomText(length, seed, alphabets.base64url);

export const googleExamples: KindExamples[] = [
  {
    kind: 'google-api-key',
    positives: [
      { name: 'environment variable', make: (seed) => `GOOGLE_API_KEY=AIza${url64(35, seed)}` },
      { name: 'in a Maps URL', make: (seed) => `https://maps.googleapis.com/maps/api/js?key=AIza${url64(35, seed + 1)}&callback=init` },
    ],
    negatives: [
      { name: 'placeholder', text: 'GOOGLE_API_KEY=AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX' },
      { name: 'one character short', text: `AIza${url64(34, 2)}` },
    ],
  },
  {
    kind: 'google-oauth-secret',
    positives: [
      { name: 'client_secret.json', make: (seed) => `"client_secret": "GOCSPX-${url64(28, seed)}"` },
      { name: 'environment variable', make: (seed) => `GOOGLE_CLIENT_SECRET=GOCSPX-${url64(28, seed + 1)}` },
    ],
    negatives: [
      { name: 'placeholder', text: 'GOOGLE_CLIENT_SECRET=GOCSPX-xxxxxxxxxxxxxxxxxxxxxxxxxxxx' },
      { name: 'one character short', text: `GOCSPX-${url64(27, 3)}` },
      { name: 'prefix in prose', text: 'Google client secrets start with GOCSPX- since 2021' },
    ],
  },
];
