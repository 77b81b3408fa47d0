import { type CredentialRule, realRandom } from './rule.js';

// npm access tokens (`npm_` + 36 base62, granular and classic alike), any token after an `.npmrc` `:_authToken=`
// (legacy npm tokens are UUIDs, other registries' their own shapes; `${NPM_TOKEN}` is a template and passes), and
// Hugging Face user access tokens (`hf_` + 34 or more letters and digits; the older organization tokens are
// `api_org_` + 34).

export const packageRegistryRules: readonly CredentialRule[] = [
  {
    kind: 'npm-token',
    literals: ['npm_'],
    pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g,
    accept: (match) => /[A-Za-z]/.test(match[0].slice(4)) && realRandom(match[0].slice(4)),
  },
  {
    kind: 'npm-token',
    literals: [':_authtoken='],
    pattern: /:_authToken=["']?([A-Za-z0-9._~+/=-]{20,200})(?![A-Za-z0-9._~+/=-])/gi,
    accept: (match) => {
      const value = match[1] ?? '';
      return /[A-Za-z]/.test(value) && /\d/.test(value) && realRandom(value.replace(/[-.]/g, ''));
    },
  },
  {
    kind: 'huggingface-token',
    literals: ['hf_', 'api_org_'],
    pattern: /(?<![A-Za-z0-9_])(?:hf|api_org)_[A-Za-z0-9]{34,48}(?![A-Za-z0-9_])/g,
    accept: (match) => {
      const body = match[0].slice(match[0].lastIndexOf('_') + 1);
      return /[a-z]/.test(body) && /[A-Z]/.test(body) && realRandom(body);
    },
  },
];
