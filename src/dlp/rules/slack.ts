import { type CredentialRule, hasMixedClasses, realRandom } from './rule.js';

// Slack: bot, user, workspace, legacy and app tokens (`xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`, `xoxo-`,
// `xapp-`, in every shape Slack has issued: numeric team/user/app ids joined by hyphens, then the random part),
// configuration access tokens (`xoxe.xoxp-1-…`, `xoxe.xoxb-1-…`) and their refresh tokens (`xoxe-1-…`), and
// incoming-webhook / workflow URLs. The placeholder policy judges everything after the prefix: a real legacy
// token whose last segment is short is still a token.

export const slackRules: readonly CredentialRule[] = [
  {
    kind: 'slack-token',
    literals: ['xox', 'xapp-'],
    pattern: /(?<![A-Za-z0-9.-])(?:xoxe\.xox[abp]|xox[abposre]|xapp)-[A-Za-z0-9-]{10,400}(?![A-Za-z0-9-])/g,
    accept: (match) => {
      const randomPart = match[0].slice(match[0].indexOf('-') + 1);
      if (randomPart.length < 20 || !realRandom(randomPart)) return false;
      // Real tokens carry numeric ids (or, for configuration tokens, a long random base62 part); slugs do not.
      if (/\d{6}/.test(randomPart) || (randomPart.length >= 60 && hasMixedClasses(randomPart))) return true;
      // Refresh tokens (`xoxe-1-` + a long random part, upper-case and digits only in some issues).
      return match[0].startsWith('xoxe-1-') && randomPart.length >= 100;
    },
  },
  {
    kind: 'slack-webhook',
    literals: ['hooks.slack.com/'],
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/+-]{20,200}/g,
    accept: (match) => {
      const path = match[0].slice(match[0].indexOf('/', 16) + 1);
      const tail = path.slice(path.lastIndexOf('/') + 1);
      return tail.length >= 16 && realRandom(path);
    },
  },
];
