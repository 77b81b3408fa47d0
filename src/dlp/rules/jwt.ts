import { type CredentialRule, decodesToJsonObject } from './rule.js';

// JSON Web Tokens (also LINE's short-lived and v2.1 channel access tokens): header.payload[.signature], both
// JSON objects once base64url-decoded (detect-secrets' structural check). The whole three-part token is matched,
// so redaction never leaves the signature behind.

export const jwtRules: readonly CredentialRule[] = [
  {
    kind: 'jwt',
    literals: ['.ew', '.ey'], // the payload's start
    pattern: /(?<![A-Za-z0-9_-])e[wy][A-Za-z0-9_-]{8,2000}\.e[wy][A-Za-z0-9_-]{8,8000}\.[A-Za-z0-9_-]{0,2000}/g,
    accept: (match) => {
      const [header = '', payload = ''] = match[0].split('.');
      return decodesToJsonObject(header) && decodesToJsonObject(payload);
    },
  },
];
