import { shannonEntropy } from '../placeholder.js';
import { type CredentialRule, hasMixedClasses, realRandom } from './rule.js';

// AWS access key ids (AKIA… for long-term keys, ASIA… for temporary ones, and the other published id prefixes:
// 16 base32 characters after the prefix) and 40-character secret access keys, which have no prefix of their own
// and are blocked only beside a key id or an "aws … secret/key" label (in English or Thai).

const awsKeyId = /(?<![A-Za-z0-9])(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z2-7]{16}(?![A-Za-z0-9])/g;
const awsKeyIdNearby = /(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z2-7]{16}/;
const awsKeyIdLiterals = ['a3t', 'akia', 'asia', 'abia', 'acca', 'agpa', 'aida', 'aroa', 'aipa', 'anpa', 'anva', 'apka'];

/** "aws … secret/key" (or "secret access key", or Thai คีย์/รหัสลับ/ความลับ beside "aws") shortly before a candidate. */
function awsSecretLabel(before: string): boolean {
  const lower = before.toLowerCase();
  const aws = lower.lastIndexOf('aws');
  if (aws >= 0 && (lower.includes('secret', aws) || lower.includes('key', aws) || /คีย์|รหัสลับ|ความลับ/.test(lower))) return true;
  return /secret[ _.-]?access[ _.-]?key/.test(lower);
}

export const awsRules: readonly CredentialRule[] = [
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
    // The label is at most 120 characters before the key, a key id within 400 before or 440 after it.
    near: { clues: [/aws|secret[ _.-]?access[ _.-]?key/gi, new RegExp(awsKeyIdNearby.source, 'g')], reach: 440 },
    pattern: /(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/g,
    accept: (match, text) => {
      const token = match[0];
      if (!hasMixedClasses(token) || !realRandom(token) || shannonEntropy(token) < 4) return false;
      const before = text.slice(Math.max(0, match.index - 120), match.index);
      const around = text.slice(Math.max(0, match.index - 400), match.index + 440);
      return awsSecretLabel(before) || awsKeyIdNearby.test(around);
    },
  },
];
