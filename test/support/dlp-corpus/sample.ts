// The labelled samples of the DLP corpus: what an outside tester would throw at the outbound scanner.

/** Every kind of credential the corpus has positives for (configured-secret is an exact-value match, not a shape). */
export const positiveKinds = [
  'aws-access-key',
  'aws-secret-key',
  'github-token',
  'gitlab-token',
  'npm-token',
  'openai-key',
  'anthropic-key',
  'huggingface-token',
  'slack-token',
  'slack-webhook',
  'discord-bot-token',
  'discord-webhook',
  'line-channel-access-token',
  'line-channel-secret',
  'telegram-bot-token',
  'google-api-key',
  'google-oauth-secret',
  'azure-storage-key',
  'azure-connection-string',
  'azure-client-secret',
  'azure-devops-pat',
  'twilio-key',
  'sendgrid-key',
  'stripe-key',
  'jwt',
  'pem-private-key',
  'database-url',
  'basic-auth-url',
  'password-assignment',
  'secret-assignment',
] as const;

export type PositiveKind = (typeof positiveKinds)[number];

/** The ways a model (or a user asking it) disguises a credential; each is applied to every plain positive value. */
export const obfuscationForms = [
  'line-break',
  'line-break-word',
  'zero-width',
  'markdown-escape',
  'backticks',
  'full-width',
  'hyphen-groups',
  'spaced',
  'hyphenated',
  'concatenation',
  'pem-header-wrapped',
  'pem-body-only',
  'pem-cut-off',
  'dotted',
  'comma-separated',
  'underscore-separated',
  'slash-separated',
  'thai-separated',
  'base64',
  'hex',
  'percent-encoded',
  'html-entities',
  'reversed',
  'two-labelled-lines',
  'table-cells',
  'space-groups',
] as const;

export type ObfuscationForm = (typeof obfuscationForms)[number];

export type SampleForm = 'plain' | ObfuscationForm;

export interface Sample {
  kind: PositiveKind | 'negative';
  form: SampleForm;
  /** Where the value sits (thai, json, env …) for positives; the negative class for negatives. */
  context: string;
  text: string;
  /** Positives: the exact span of `text` that carries the credential, as written (for masking in reports). */
  secret?: string;
  /** Positives: the vendor format the value was generated from (ghp, glpat-routable …). */
  format?: string;
}

/** The negative classes whose text is ordinary Thai prose: none of them may ever be blocked. */
export const thaiProseClasses: readonly string[] = ['xquad-paragraph', 'xquad-question', 'thai-digits-dates'];
