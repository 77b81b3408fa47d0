import { type CredentialRule, realRandom } from './rule.js';

// Google: API keys (`AIza` + 35 base64url) and OAuth 2.0 client secrets (`GOCSPX-` + 28 base64url, the format of
// client secrets created since 2021).

export const googleRules: readonly CredentialRule[] = [
  {
    kind: 'google-api-key',
    literals: ['aiza'],
    pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g,
    accept: (match) => realRandom(match[0].slice(4)),
  },
  {
    kind: 'google-oauth-secret',
    literals: ['gocspx-'],
    pattern: /(?<![A-Za-z0-9_-])GOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/g,
    accept: (match) => realRandom(match[0].slice(7)),
  },
];
