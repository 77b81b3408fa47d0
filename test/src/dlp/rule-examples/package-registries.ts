import { randomText } from '../../../support/fake-tokens.js';
import { alphabets, base62, type KindExamples } from './examples.js';

export const packageRegistryExamples: KindExamples[] = [
  {
    kind: 'npm-token',
    positives: [
      { name: '.npmrc auth token', make: (seed) => `//registry.npmjs.org/:_authToken=npm_${base62(36, seed)}` },
      { name: 'environment variable', make: (seed) => `NPM_TOKEN=npm_${base62(36, seed + 1)}` },
      { name: 'bare', make: (seed) => `npm_${base62(36, seed + 2)}` },
      {
        name: '.npmrc legacy token (a UUID)',
        make: (seed) => {
          const hex = randomText(32, seed + 3, '0123456789abcdef');
          return `//registry.npmjs.org/:_authToken=${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
        },
      },
      { name: '.npmrc token of another registry', make: (seed) => `//npm.example.org/repository/npm/:_authToken=${base62(40, seed + 4)}` },
    ],
    negatives: [
      { name: '.npmrc token from the environment', text: '//registry.npmjs.org/:_authToken=${NPM_TOKEN}' },
      { name: '.npmrc placeholder', text: '//registry.npmjs.org/:_authToken=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' },
      { name: 'all-x placeholder', text: 'NPM_TOKEN=npm_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' },
      { name: 'npm config variable', text: 'npm_config_cache and npm_package_version are set by npm run' },
      { name: 'one character short', text: `npm_${base62(35, 3)}` },
      { name: 'one character long', text: `npm_${base62(37, 4)}` },
    ],
  },
  {
    kind: 'huggingface-token',
    positives: [
      { name: 'user access token', make: (seed) => `HF_TOKEN=hf_${randomText(34, seed, alphabets.letters)}` },
      { name: 'in a login command', make: (seed) => `huggingface-cli login --token hf_${randomText(34, seed + 1, alphabets.letters)}` },
      { name: 'organization token', make: (seed) => `api_org_${randomText(34, seed + 2, alphabets.letters)}` },
    ],
    negatives: [
      { name: 'all-x placeholder', text: 'HF_TOKEN=hf_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' },
      { name: 'library function', text: 'call hf_hub_download(repo_id, filename) first' },
      { name: 'lower-case only', text: `hf_${randomText(34, 5, 'abcdefghijklmnopqrstuvwxyz')}` },
      { name: 'too short', text: `hf_${randomText(20, 6, alphabets.letters)}` },
    ],
  },
];
