// Credential-shaped test values, generated so that no literal token sits in the repository (secret scanners and
// push protection would flag them). A fixed seed keeps every run identical.

import { crc32 } from 'node:zlib';

const base62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const base32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** Deterministic pseudo-random text over an alphabet (a small LCG; good enough for shapes and entropy). */
export function randomText(length: number, seed: number, alphabet = base62): string {
  let state = seed >>> 0 || 1;
  let out = '';
  for (let index = 0; index < length; index++) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    out += alphabet[(state >>> 8) % alphabet.length];
  }
  return out;
}

/**
 * A classic GitHub token as GitHub issues them: prefix, 30 random base62 characters, and their CRC32 in base62
 * (digits 0-9A-Za-z, 6 of them). The scanner blocks only checksum-valid 36-character bodies.
 */
export function githubToken(prefix: string, seed: number): string {
  const random = randomText(30, seed);
  const digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  let checksum = '';
  for (let rest = crc32(random); rest > 0; rest = Math.floor(rest / 62)) checksum = digits[rest % 62] + checksum;
  return `${prefix}_${random}${checksum.padStart(6, '0')}`;
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export const fake = {
  awsKeyId: () => `AKIA${randomText(16, 11, base32)}`,
  awsSecret: () => `${randomText(18, 12)}/${randomText(10, 13)}+${randomText(10, 14)}`,
  githubClassic: (prefix = 'ghp') => githubToken(prefix, 21),
  githubFineGrained: () => `github_pat_${randomText(22, 22)}_${randomText(59, 23)}`,
  openaiLegacy: () => `sk-${randomText(20, 31)}T3BlbkFJ${randomText(20, 32)}`,
  openaiProject: () => `sk-proj-${randomText(40, 33)}-${randomText(33, 34)}T3BlbkFJ${randomText(40, 35)}`,
  openaiCompatible: () => `sk-${randomText(48, 36)}`,
  anthropic: () => `sk-ant-api03-${randomText(93, 37)}AA`,
  slackBot: () => `xoxb-${randomText(12, 41, '0123456789')}-${randomText(13, 42, '0123456789')}-${randomText(24, 43)}`,
  slackWebhook: () => `https://hooks.slack.com/services/T${randomText(8, 44, base32)}/B${randomText(8, 45, base32)}/${randomText(24, 46)}`,
  jwt: () => `${base64url({ alg: 'HS256', typ: 'JWT' })}.${base64url({ sub: '1234567890', name: 'Somchai', iat: 1_716_239_022 })}.${randomText(43, 51)}`,
  pemBlock: () => `-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA${randomText(60, 52)}\n${randomText(64, 53)}\n-----END RSA PRIVATE KEY-----`,
  googleApiKey: () => `AIza${randomText(35, 61)}`,
  stripeLive: () => `sk_live_${randomText(24, 71)}`,
  telegramBot: () => `7123456789:AA${randomText(33, 81)}`,
};
