import { aiProviderRules } from './rules/ai-providers.js';
import { awsRules } from './rules/aws.js';
import { azureRules } from './rules/azure.js';
import { chatPlatformRules } from './rules/chat-platforms.js';
import { connectionUrlRules } from './rules/connection-urls.js';
import { githubGitlabRules } from './rules/github-gitlab.js';
import { googleRules } from './rules/google.js';
import { jwtRules } from './rules/jwt.js';
import { messagingPaymentRules } from './rules/messaging-payments.js';
import { packageRegistryRules } from './rules/package-registries.js';
import { pemRules } from './rules/pem.js';
import type { CredentialRule } from './rules/rule.js';
import { slackRules } from './rules/slack.js';

// Every credential shape of the DLP scanner and the log redactor, one file per vendor family in rules/ (each rule:
// kind, bounded linear-time pattern, accept, prefilter literals; its examples in test/src/dlp/rule-examples/).
// Written from the vendors' published formats. The order is stable: scan results list kinds in this order.

export type { CredentialRule } from './rules/rule.js';

export const credentialRules: readonly CredentialRule[] = [
  ...awsRules,
  ...githubGitlabRules,
  ...packageRegistryRules,
  ...aiProviderRules,
  ...slackRules,
  ...chatPlatformRules,
  ...googleRules,
  ...azureRules,
  ...messagingPaymentRules,
  ...connectionUrlRules,
  ...jwtRules,
  ...pemRules,
];
