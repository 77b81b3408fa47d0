import { crc32 } from 'node:zlib';
import { type CredentialRule, decodesToJsonObject, isLowerCaseWords, realRandom } from './rule.js';

// GitHub: classic tokens (ghp_/gho_/ghu_/ghs_/ghr_ + 36 base62), fine-grained tokens (github_pat_ + 22 + _ + 59),
// and the stateless installation token `ghs_<app id>_<JWT>` (GitHub changelog 2026-04-24: ~520 characters, two
// dots). GitLab: every published token prefix (personal, deploy, runner, pipeline trigger, feed, incoming mail,
// agent, OAuth secret, CI job, SCIM, feature-flag client) + 20 or more characters, with the optional
// `.<version>.<checksum>` tail of routable tokens.
// A classic token's 36 characters are 30 random ones and their CRC32 in base62 (digits 0-9A-Za-z, six of them;
// GitHub blog 2021-04-05, CredSweeper's value_github_check): a look-alike made up by hand or by a model fails it and
// is not blocked, every token GitHub issued since 2021 passes.

const checksumDigits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** True when the last 6 characters of a 36-character classic body are the base62 CRC32 of the first 30. */
export function githubChecksumValid(body: string): boolean {
  if (body.length !== 36) return false;
  let value = 0;
  for (const digit of body.slice(30)) {
    const index = checksumDigits.indexOf(digit);
    if (index < 0) return false;
    value = value * 62 + index;
  }
  return value === crc32(body.slice(0, 30));
}

export const githubGitlabRules: readonly CredentialRule[] = [
  {
    // A token as a URL's user name with GitHub's fixed password (`git+https://<token>:x-oauth-basic@github.com/…`
    // in package.json and lock files): whatever the token's format, the URL hands it over.
    kind: 'github-token',
    literals: [':x-oauth-basic@'],
    pattern: /(?<=\/\/)([A-Za-z0-9_]{20,255}):x-oauth-basic@/g,
    accept: (match) => {
      const token = match[1] ?? '';
      return /[A-Za-z]/.test(token) && /\d/.test(token) && realRandom(token);
    },
  },
  {
    kind: 'github-token',
    literals: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    pattern: /(?<![A-Za-z0-9_])(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}(?![A-Za-z0-9_])/g,
    // 36 characters: the checksummed format; longer bodies (refresh tokens of other lengths) by shape.
    accept: (match) => {
      const body = match[0].slice(4);
      return realRandom(body) && (body.length > 36 || githubChecksumValid(body));
    },
  },
  {
    kind: 'github-token',
    literals: ['ghs_'],
    pattern: /(?<![A-Za-z0-9_-])ghs_\d{1,20}_[A-Za-z0-9_-]{8,2000}\.[A-Za-z0-9_-]{8,4000}\.[A-Za-z0-9_-]{8,2000}(?![A-Za-z0-9_.-])/g,
    accept: (match) => {
      const jwt = match[0].slice(match[0].indexOf('_', 4) + 1);
      const [header = '', payload = '', signature = ''] = jwt.split('.');
      return (decodesToJsonObject(header) || decodesToJsonObject(payload)) && realRandom(payload + signature);
    },
  },
  {
    kind: 'github-token',
    literals: ['github_pat_'],
    pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{60,255}(?![A-Za-z0-9_])/g,
    accept: (match) => realRandom(match[0].slice(11)),
  },
  {
    kind: 'gitlab-token',
    literals: ['glpat-', 'gldt-', 'glrt-', 'glrtr-', 'glptt-', 'glft-', 'glimt-', 'glagent-', 'gloas-', 'glcbt-', 'glsoat-', 'glffct-'],
    pattern: /(?<![A-Za-z0-9_-])gl(?:pat|dt|rt|rtr|ptt|ft|imt|agent|oas|cbt|soat|ffct)-[A-Za-z0-9_-]{20,255}(?:\.[A-Za-z0-9_-]{1,64}){0,3}(?![A-Za-z0-9_-])/g,
    accept: (match) => {
      const body = match[0].slice(match[0].indexOf('-') + 1);
      return /[\dA-Z]/.test(body) && !isLowerCaseWords(body) && realRandom(body);
    },
  },
];
