import { aiProviderExamples } from './ai-providers.js';
import { awsExamples } from './aws.js';
import { azureExamples } from './azure.js';
import { chatPlatformExamples } from './chat-platforms.js';
import { connectionUrlExamples } from './connection-urls.js';
import type { KindExamples } from './examples.js';
import { githubGitlabExamples } from './github-gitlab.js';
import { googleExamples } from './google.js';
import { jwtExamples } from './jwt.js';
import { messagingPaymentExamples } from './messaging-payments.js';
import { packageRegistryExamples } from './package-registries.js';
import { pemExamples } from './pem.js';
import { slackExamples } from './slack.js';

// Every family's examples, one entry per credential kind of src/dlp/rules/.
export const ruleExamples: readonly KindExamples[] = [
  ...awsExamples,
  ...githubGitlabExamples,
  ...packageRegistryExamples,
  ...aiProviderExamples,
  ...slackExamples,
  ...chatPlatformExamples,
  ...googleExamples,
  ...azureExamples,
  ...messagingPaymentExamples,
  ...connectionUrlExamples,
  ...jwtExamples,
  ...pemExamples,
];

export type { KindExamples } from './examples.js';
