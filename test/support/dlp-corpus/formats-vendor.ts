import { crc32 } from 'node:zlib';
import { alphabets, base64url, type Draw } from './draw.js';
import type { CredentialFormat } from './format.js';

// Developer-platform and cloud credentials, from each vendor's published token format.

// GitHub's checksum digits: 0-9, A-Z, a-z (the order of the base62 encoders GitHub and CredSweeper use).
const checksumDigits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(value: number, width: number): string {
  let out = '';
  for (let rest = value; rest > 0; rest = Math.floor(rest / 62)) out = checksumDigits[rest % 62] + out;
  return out.padStart(width, '0');
}

/** Microsoft Entra client secrets: `[A-Za-z0-9_~.-]`. */
const entraAlphabet = `${alphabets.base62}_~.-`;

/** GitHub's classic format: prefix, 30 random base62 characters, then their CRC32 in base62 (6 characters). */
function githubClassic(prefix: string, draw: Draw): string {
  const random = draw.text(30);
  return `${prefix}_${random}${base62(crc32(random), 6)}`;
}

const jwtPart = (draw: Draw, length: number) => draw.text(length, alphabets.base64url);

export const vendorFormats: readonly CredentialFormat[] = [
  { kind: 'aws-access-key', name: 'AKIA', make: (draw) => `AKIA${draw.text(16, alphabets.base32)}` },
  { kind: 'aws-access-key', name: 'ASIA', make: (draw) => `ASIA${draw.text(16, alphabets.base32)}` },
  { kind: 'aws-secret-key', name: 'secret-access-key', labelled: true, make: (draw) => draw.text(40, alphabets.base64) },
  ...['ghp', 'gho', 'ghu', 'ghs', 'ghr'].map((prefix): CredentialFormat => ({
    kind: 'github-token',
    name: prefix,
    make: (draw) => githubClassic(prefix, draw),
  })),
  { kind: 'github-token', name: 'github_pat', make: (draw) => `github_pat_11${draw.text(20, alphabets.upperAlnum)}_${draw.text(59)}` },
  {
    // The installation-token form of 2026: ghs_<installation id>_<JWT-like body>.
    kind: 'github-token',
    name: 'ghs-jwt',
    make: (draw) => {
      const issuedAt = draw.int(1_770_000_000, 1_790_000_000);
      const claims = { iss: 'github.com', sub: `installation:${draw.number(8)}`, iat: issuedAt, exp: issuedAt + 3600, jti: draw.text(16) };
      return `ghs_${draw.number(8)}_${base64url({ alg: 'RS256', typ: 'JWT' })}.${base64url(claims)}.${jwtPart(draw, 342)}`;
    },
  },
  { kind: 'gitlab-token', name: 'glpat', make: (draw) => `glpat-${draw.text(20, alphabets.base64url)}` },
  {
    kind: 'gitlab-token',
    name: 'glpat-routable',
    make: (draw) => `glpat-${draw.text(27, alphabets.base64url)}.01.${draw.text(9, alphabets.base36)}`,
  },
  { kind: 'gitlab-token', name: 'gldt', make: (draw) => `gldt-${draw.text(20, alphabets.base64url)}` },
  { kind: 'gitlab-token', name: 'glrt', make: (draw) => `glrt-${draw.text(20, alphabets.base64url)}` },
  { kind: 'gitlab-token', name: 'glptt', make: (draw) => `glptt-${draw.text(40, alphabets.hex)}` },
  { kind: 'npm-token', name: 'npm', make: (draw) => `npm_${draw.text(36)}` },
  { kind: 'openai-key', name: 'legacy', make: (draw) => `sk-${draw.text(20)}T3BlbkFJ${draw.text(20)}` },
  {
    kind: 'openai-key',
    name: 'proj',
    make: (draw) => `sk-proj-${draw.text(74, alphabets.base64url)}T3BlbkFJ${draw.text(74, alphabets.base64url)}`,
  },
  {
    kind: 'openai-key',
    name: 'svcacct',
    make: (draw) => `sk-svcacct-${draw.text(58, alphabets.base64url)}T3BlbkFJ${draw.text(58, alphabets.base64url)}`,
  },
  { kind: 'openai-key', name: 'admin', make: (draw) => `sk-admin-${draw.text(58, alphabets.base64url)}T3BlbkFJ${draw.text(58, alphabets.base64url)}` },
  // OpenAI-compatible gateways (DeepSeek, Moonshot, local proxies): sk- and 32 hex or 48 base62, no marker.
  { kind: 'openai-key', name: 'compatible-hex', make: (draw) => `sk-${draw.text(32, alphabets.hex)}` },
  { kind: 'openai-key', name: 'compatible-48', make: (draw) => `sk-${draw.text(48)}` },
  { kind: 'anthropic-key', name: 'api03', make: (draw) => `sk-ant-api03-${draw.text(93, alphabets.base64url)}AA` },
  { kind: 'anthropic-key', name: 'admin01', make: (draw) => `sk-ant-admin01-${draw.text(93, alphabets.base64url)}AA` },
  { kind: 'huggingface-token', name: 'hf', make: (draw) => `hf_${draw.text(34, alphabets.letters)}` },
  { kind: 'huggingface-token', name: 'api_org', make: (draw) => `api_org_${draw.text(34, alphabets.letters)}` },
  { kind: 'google-api-key', name: 'AIza', make: (draw) => `AIza${draw.text(35, alphabets.base64url)}` },
  { kind: 'google-oauth-secret', name: 'GOCSPX', make: (draw) => `GOCSPX-${draw.text(28, alphabets.base64url)}` },
  { kind: 'stripe-key', name: 'sk_live', make: (draw) => `sk_live_${draw.text(24)}` },
  { kind: 'stripe-key', name: 'sk_test', make: (draw) => `sk_test_${draw.text(24)}` },
  { kind: 'stripe-key', name: 'rk_live', make: (draw) => `rk_live_${draw.text(24)}` },
  { kind: 'stripe-key', name: 'rk_test', make: (draw) => `rk_test_${draw.text(24)}` },
  { kind: 'stripe-key', name: 'sk_live-long', make: (draw) => `sk_live_51${draw.text(97)}` },
  { kind: 'sendgrid-key', name: 'SG', make: (draw) => `SG.${draw.text(22, alphabets.base64url)}.${draw.text(43, alphabets.base64url)}` },
  { kind: 'twilio-key', name: 'api-key-SK', make: (draw) => `SK${draw.text(32, alphabets.hex)}` },
  { kind: 'twilio-key', name: 'auth-token', labelled: true, make: (draw) => draw.text(32, alphabets.hex) },
  // An auth token beside its account SID, as `curl -u` and the REST clients take them (SID:token).
  { kind: 'twilio-key', name: 'sid-and-token', make: (draw) => `AC${draw.text(32, alphabets.hex)}:${draw.text(32, alphabets.hex)}` },
  {
    // Entra ID (Azure AD) client secret of today: 3 characters, a digit, `Q~`, 34 characters (40 in all).
    kind: 'azure-client-secret',
    name: 'Q~',
    make: (draw) => `${draw.text(3, entraAlphabet)}${draw.pick(['7', '8'])}Q~${draw.text(34, entraAlphabet)}`,
  },
  // Older client secrets: 32–34 characters without a marker, only beside a label.
  { kind: 'azure-client-secret', name: 'legacy', labelled: true, make: (draw) => draw.text(draw.int(32, 34), `${alphabets.base62}.-_@+?`) },
  // Azure DevOps PATs: 52 lower-case base32 characters (legacy, only beside a label), and the 84-character format of
  // 2024 (a common annotated security key: `JQQJ9` at 52, `AZDO` at 76).
  { kind: 'azure-devops-pat', name: 'legacy-52', labelled: true, make: (draw) => draw.text(52, 'abcdefghijklmnopqrstuvwxyz234567') },
  {
    kind: 'azure-devops-pat',
    name: 'ado-84',
    make: (draw) => `${draw.text(52)}JQQJ9${draw.pick(['9', 'D', 'H'])}${draw.text(1)}${draw.pick([...'ABCDEFGHIJKL'])}${draw.text(16)}AZDO${draw.text(4)}`,
  },
];
