import { shannonEntropy } from '../placeholder.js';
import { type CredentialRule, hasMixedClasses, isLowerCaseWords, randomKeyBody, realRandom } from './rule.js';

// OpenAI: legacy user keys (`sk-` + 20 + T3BlbkFJ + 20 base62), project, service-account and admin keys
// (`sk-proj-`, `sk-svcacct-`, `sk-admin-` + base64url carrying T3BlbkFJ), and the marker-less `sk-` + 32 or more
// base62 keys of OpenAI-compatible providers (DeepSeek's 32 lower-case hex, Moonshot's 48 base62, local gateways),
// accepted only when random: a URL path such as `/sk-hynix-news/` or `/sk-ii-essence/`, a package name such as
// `sk-learn` or a hyphenated slug never is. OpenRouter keys (`sk-or-v1-` + 64 hex) are OpenAI-compatible keys too.
// Anthropic: `sk-ant-api03-…`, `sk-ant-admin01-…` and the OAuth tokens `sk-ant-oat01-…` / `sk-ant-ort01-…`.

const openAiMarker = 'T3BlbkFJ';

/** A marker-less `sk-` body: 32+ base62 with letters and digits, and random enough for its alphabet. */
function compatibleKeyBody(body: string): boolean {
  if (!/[A-Za-z]/.test(body) || !/\d/.test(body) || !realRandom(body)) return false;
  if (/^[0-9a-f]+$/.test(body)) return shannonEntropy(body) >= 3.3; // lower-case hex (16 symbols)
  if (/[a-z]/.test(body) && /[A-Z]/.test(body)) return shannonEntropy(body) >= 3.8;
  return shannonEntropy(body) >= 4.2; // one case and digits, but not hex: English words score below this
}

export const aiProviderRules: readonly CredentialRule[] = [
  {
    kind: 'openai-key',
    literals: ['sk-'],
    pattern: /(?<![A-Za-z0-9_-])sk-[A-Za-z0-9]{32,250}(?![A-Za-z0-9_-])/g,
    accept: (match) => {
      const body = match[0].slice(3);
      return body.includes(openAiMarker) ? realRandom(body.replace(openAiMarker, '')) : compatibleKeyBody(body);
    },
  },
  {
    kind: 'openai-key',
    literals: ['sk-'],
    pattern: /(?<![A-Za-z0-9_-])sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,250}(?![A-Za-z0-9_-])/g,
    accept: (match) => {
      const body = match[0].slice(match[0].indexOf('-', 3) + 1);
      if (isLowerCaseWords(body) || !realRandom(body)) return false;
      return body.includes(openAiMarker) || (body.length >= 40 && hasMixedClasses(body) && shannonEntropy(body) >= 4.5);
    },
  },
  {
    kind: 'openai-key',
    literals: ['sk-or-v1-'],
    pattern: /(?<![A-Za-z0-9_-])sk-or-v1-[0-9a-f]{64}(?![A-Za-z0-9_-])/g,
    accept: (match) => randomKeyBody(match[0].slice(9), 3.3),
  },
  {
    kind: 'anthropic-key',
    literals: ['sk-ant-'],
    pattern: /(?<![A-Za-z0-9_-])sk-ant-(?:api|admin|oat|ort)\d{2}-[A-Za-z0-9_-]{32,250}(?![A-Za-z0-9_-])/g,
    accept: (match) => randomKeyBody(match[0].slice(match[0].indexOf('-', 7) + 1)),
  },
];
