import { isPlaceholderSecret, shannonEntropy } from './placeholder.js';

// Credential formats, after gitleaks / secretlint / detect-secrets. Every pattern
// is prefix-anchored, its quantifiers are bounded, and its character classes cannot overlap its delimiters, so
// each runs in linear time. `accept` applies structural checks and the placeholder policy (placeholder.ts).

export interface CredentialRule {
  kind: string;
  /** Global, sticky-free pattern; run on windows of bounded length. */
  pattern: RegExp;
  /** True when the match is a credential (not a placeholder, structurally valid). */
  accept(match: RegExpExecArray, text: string): boolean;
  /**
   * Lower-case strings, one of which the lower-cased text contains whenever the rule can accept a match: lets the
   * log redactor skip the pattern on the many lines that cannot hold this credential.
   */
  literals: readonly string[];
}

const awsKeyId = /(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z2-7]{16}(?![A-Za-z0-9])/g;
const awsKeyIdNearby = /(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z2-7]{16}/;
const awsKeyIdLiterals = ['a3t', 'akia', 'asia', 'abia', 'acca', 'agpa', 'aida', 'aroa', 'aipa', 'anpa', 'anva', 'apka'];

/** "aws … secret/key" (or "secret access key") shortly before a candidate secret. */
function awsSecretLabel(before: string): boolean {
  const lower = before.toLowerCase();
  const aws = lower.lastIndexOf('aws');
  if (aws >= 0 && (lower.includes('secret', aws) || lower.includes('key', aws))) return true;
  return /secret[ _.-]?access[ _.-]?key/.test(lower);
}

function randomTail(token: string, separator: string): string {
  return token.slice(token.lastIndexOf(separator) + 1);
}

function realRandom(randomPart: string): boolean {
  return !isPlaceholderSecret(randomPart);
}

function randomKeyBody(body: string): boolean {
  return /[A-Za-z]/.test(body) && /\d/.test(body) && realRandom(body) && shannonEntropy(body) >= 3.5;
}

function decodesToJsonObject(part: string): boolean {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

export const credentialRules: readonly CredentialRule[] = [
  {
    kind: 'aws-access-key',
    literals: awsKeyIdLiterals,
    pattern: awsKeyId,
    accept: (match) => realRandom(match[0].slice(4)),
  },
  {
    // A 40-character secret access key, only beside a key id or an "aws … secret/key" label.
    kind: 'aws-secret-key',
    literals: ['aws', 'secret', ...awsKeyIdLiterals], // what awsSecretLabel and awsKeyIdNearby need
    pattern: /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    accept: (match, text) => {
      const token = match[0];
      if (!/[a-z]/.test(token) || !/[A-Z]/.test(token) || !/\d/.test(token)) return false;
      if (!realRandom(token) || shannonEntropy(token) < 4) return false;
      const before = text.slice(Math.max(0, match.index - 120), match.index);
      const around = text.slice(Math.max(0, match.index - 400), match.index + 440);
      return awsSecretLabel(before) || awsKeyIdNearby.test(around);
    },
  },
  {
    kind: 'github-token',
    literals: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    pattern: /(?<![A-Za-z0-9_])(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}(?![A-Za-z0-9_])/g,
    accept: (match) => realRandom(match[0].slice(4)),
  },
  {
    kind: 'github-token',
    literals: ['github_pat_'],
    pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9_]{60,255}(?![A-Za-z0-9_])/g,
    accept: (match) => realRandom(match[0].slice(11)),
  },
  {
    // OpenAI legacy, project, service-account and admin keys, with or without the T3BlbkFJ marker, so that
    // OpenAI-compatible gateways' keys are caught too. Needs letters and digits and entropy: `sk-learn`, slugs.
    kind: 'openai-key',
    literals: ['sk-'],
    pattern: /(?<![A-Za-z0-9_-])sk-(?!ant-)(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,250}(?![A-Za-z0-9_-])/g,
    accept: (match) => randomKeyBody(match[0].replace(/^sk-(?:proj-|svcacct-|admin-)?/, '')),
  },
  {
    kind: 'anthropic-key',
    literals: ['sk-ant-'],
    pattern: /(?<![A-Za-z0-9_-])sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{32,250}(?![A-Za-z0-9_-])/g,
    accept: (match) => randomKeyBody(match[0].slice(match[0].indexOf('-', 7) + 1)),
  },
  {
    kind: 'slack-token',
    literals: ['xox'],
    pattern: /(?<![A-Za-z0-9-])xox[abposre]-[A-Za-z0-9-]{10,250}(?![A-Za-z0-9-])/g,
    // Real Slack tokens carry numeric team/user ids; `xoxb-xxxx…` and short fakes do not.
    accept: (match) => /\d{6}/.test(match[0]) && match[0].length >= 24 && realRandom(randomTail(match[0], '-')),
  },
  {
    kind: 'slack-token',
    literals: ['xapp-'],
    pattern: /(?<![A-Za-z0-9-])xapp-\d{1,2}-[A-Z0-9]{6,20}-\d{6,20}-[A-Za-z0-9]{20,100}(?![A-Za-z0-9])/g,
    accept: (match) => realRandom(randomTail(match[0], '-')),
  },
  {
    kind: 'slack-webhook',
    literals: ['hooks.slack.com/'],
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/+-]{20,200}/g,
    accept: (match) => {
      const tail = randomTail(match[0], '/');
      return tail.length >= 16 && realRandom(tail);
    },
  },
  {
    // header.payload[.signature]: both JSON objects once base64url-decoded (detect-secrets' structural check).
    kind: 'jwt',
    literals: ['.ew', '.ey'], // the payload's start
    pattern: /(?<![A-Za-z0-9_-])e[wy][A-Za-z0-9_-]{8,2000}\.e[wy][A-Za-z0-9_-]{8,8000}\.[A-Za-z0-9_-]{0,2000}/g,
    accept: (match) => {
      const [header = '', payload = ''] = match[0].split('.');
      return decodesToJsonObject(header) && decodesToJsonObject(payload);
    },
  },
  {
    // The header alone is enough: outputs get cut mid-key.
    kind: 'pem-private-key',
    literals: ['-----begin'],
    pattern: /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/gi,
    accept: () => true,
  },
  {
    kind: 'pem-private-key',
    literals: ['putty-user-key-file-'],
    pattern: /PuTTY-User-Key-File-\d{1,2}: {0,4}[a-z0-9-]{3,40}/g,
    accept: () => true,
  },
  {
    // A base64-encoded PEM block ("-----BEGIN" → LS0tLS1CRUdJT…), as in Kubernetes secrets.
    kind: 'pem-private-key',
    literals: ['ls0tls1crudjt'],
    pattern: /(?<![A-Za-z0-9+/])LS0tLS1CRUdJT[A-Za-z0-9+/]{20,120}/g,
    accept: (match) =>
      Buffer.from(match[0].slice(0, match[0].length - (match[0].length % 4)), 'base64')
        .toString('latin1')
        .includes('PRIVATE KEY'),
  },
  {
    kind: 'google-api-key',
    literals: ['aiza'],
    pattern: /(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])/g,
    accept: (match) => realRandom(match[0].slice(4)),
  },
  {
    kind: 'stripe-live-key',
    literals: ['_live_'],
    pattern: /(?<![A-Za-z0-9])(?:sk|rk)_live_[A-Za-z0-9]{20,247}(?![A-Za-z0-9])/g,
    accept: (match) => realRandom(match[0].slice(8)),
  },
  {
    kind: 'telegram-bot-token',
    literals: [':a'],
    pattern: /(?<![A-Za-z0-9_:])\d{5,16}:A[A-Za-z0-9_-]{34}(?![A-Za-z0-9_-])/g,
    accept: (match) => realRandom(randomTail(match[0], ':')),
  },
];
