import type { PositiveKind } from './sample.js';

// How each kind is spoken of: the nouns of an answer sentence, the labels written beside a value that has no
// prefix, the environment variable, the JSON key and the URL query parameter it usually appears under.

export interface KindProfile {
  /** The vendor, for a table row. */
  service: string;
  /** Thai nouns or labels (the labels of prefix-less values: คีย์ลับ AWS, รหัสผ่าน …). */
  th: readonly string[];
  en: readonly string[];
  env: readonly string[];
  json: string;
  /** The query parameter; absent when the value is itself a URL or a block. */
  query?: string;
  /** The value as the userinfo (or path) of a URL, where the vendor uses one. */
  url?: (value: string) => string;
}

const generic = (service: string, th: string, en: string, env: string): KindProfile => ({
  service,
  th: [th],
  en: [en],
  env: [env],
  json: 'api_key',
  query: 'api_key',
});

export const kindProfiles: Record<PositiveKind, KindProfile> = {
  'aws-access-key': { ...generic('AWS', 'คีย์เข้าถึง AWS', 'AWS access key ID', 'AWS_ACCESS_KEY_ID'), json: 'aws_access_key_id', query: 'X-Amz-Key' },
  'aws-secret-key': {
    service: 'AWS',
    th: ['คีย์ลับ AWS', 'รหัสลับของ AWS', 'คีย์ลับ'],
    en: ['AWS secret access key', 'aws_secret_access_key', 'key', 'Secret'],
    env: ['AWS_SECRET_ACCESS_KEY'],
    json: 'aws_secret_access_key',
    query: 'secret',
  },
  'github-token': {
    ...generic('GitHub', 'โทเคน GitHub', 'GitHub token', 'GITHUB_TOKEN'),
    url: (value) => `https://x-access-token:${value}@github.com/saeng-bot/saeng.git`,
  },
  'gitlab-token': {
    ...generic('GitLab', 'โทเคน GitLab', 'GitLab token', 'GITLAB_TOKEN'),
    url: (value) => `https://oauth2:${value}@gitlab.com/group/project.git`,
  },
  'npm-token': { ...generic('npm', 'โทเคน npm', 'npm token', 'NPM_TOKEN'), url: (value) => `//registry.npmjs.org/:_authToken=${value}` },
  'openai-key': generic('OpenAI', 'คีย์ OpenAI', 'OpenAI API key', 'OPENAI_API_KEY'),
  'anthropic-key': generic('Anthropic', 'คีย์ Anthropic', 'Anthropic API key', 'ANTHROPIC_API_KEY'),
  'huggingface-token': {
    ...generic('Hugging Face', 'โทเคน Hugging Face', 'Hugging Face token', 'HF_TOKEN'),
    url: (value) => `https://user:${value}@huggingface.co/spaces/saeng/demo`,
  },
  'slack-token': { ...generic('Slack', 'โทเคน Slack', 'Slack token', 'SLACK_BOT_TOKEN'), query: 'token' },
  'slack-webhook': { service: 'Slack', th: ['เว็บฮุค Slack'], en: ['Slack webhook'], env: ['SLACK_WEBHOOK_URL'], json: 'webhook_url' },
  'discord-bot-token': generic('Discord', 'โทเคนบอท Discord', 'Discord bot token', 'DISCORD_TOKEN'),
  'discord-webhook': {
    service: 'Discord',
    th: ['เว็บฮุค Discord', 'ลิงก์ webhook ของ Discord'],
    en: ['Discord webhook', 'webhook URL'],
    env: ['DISCORD_WEBHOOK_URL'],
    json: 'webhook_url',
  },
  'line-channel-access-token': {
    service: 'LINE',
    th: ['โทเคนช่อง LINE', 'channel access token ของ LINE', 'โทเคน'],
    en: ['LINE channel access token', 'channelAccessToken', 'token', 'Access token'],
    env: ['LINE_CHANNEL_ACCESS_TOKEN'],
    json: 'channelAccessToken',
    query: 'access_token',
  },
  'line-channel-secret': {
    service: 'LINE',
    th: ['ความลับของช่อง LINE', 'Channel secret ของ LINE', 'คีย์ลับ', 'Channel ซีเคร็ต ของ LINE', 'ซีเคร็ตของ LINE'],
    en: ['LINE channel secret', 'channelSecret', 'secret'],
    env: ['LINE_CHANNEL_SECRET'],
    json: 'channelSecret',
    query: 'secret',
  },
  'telegram-bot-token': {
    ...generic('Telegram', 'โทเคนบอท Telegram', 'Telegram bot token', 'TELEGRAM_BOT_TOKEN'),
    query: 'token',
    url: (value) => `https://api.telegram.org/bot${value}/getMe`,
  },
  'google-api-key': { ...generic('Google', 'คีย์ Google API', 'Google API key', 'GOOGLE_API_KEY'), query: 'key' },
  'google-oauth-secret': { ...generic('Google', 'client secret ของ Google', 'Google OAuth client secret', 'GOOGLE_CLIENT_SECRET'), json: 'client_secret' },
  'azure-storage-key': {
    service: 'Azure',
    th: ['คีย์บัญชีเก็บข้อมูล Azure', 'คีย์ Azure', 'คีย์หลัก'],
    en: ['Azure storage account key', 'AccountKey', 'key1', 'Primary key'],
    env: ['AZURE_STORAGE_KEY'],
    json: 'accountKey',
    query: 'key',
  },
  'azure-connection-string': {
    service: 'Azure',
    th: ['สตริงเชื่อมต่อ Azure'],
    en: ['Azure connection string'],
    env: ['AZURE_STORAGE_CONNECTION_STRING'],
    json: 'connectionString',
  },
  'azure-client-secret': {
    service: 'Microsoft Entra ID',
    th: ['ซีเคร็ตของแอป Azure', 'client secret ของ Azure AD', 'ค่าความลับของแอป Entra'],
    en: ['Azure client secret', 'AZURE_CLIENT_SECRET', 'Entra ID client secret', 'clientSecret'],
    env: ['AZURE_CLIENT_SECRET', 'ARM_CLIENT_SECRET'],
    json: 'clientSecret',
    query: 'client_secret',
  },
  'azure-devops-pat': {
    service: 'Azure DevOps',
    th: ['โทเคน Azure DevOps', 'PAT ของ Azure DevOps', 'โทเคนเข้าถึง dev.azure.com'],
    en: ['Azure DevOps PAT', 'ADO_PAT', 'Azure DevOps personal access token'],
    env: ['AZURE_DEVOPS_PAT', 'ADO_PAT', 'AZURE_DEVOPS_EXT_PAT', 'SYSTEM_ACCESSTOKEN_ADO'],
    json: 'azureDevOpsPat',
    url: (value) => `https://build:${value}@dev.azure.com/saeng/saeng/_git/saeng`,
  },
  'twilio-key': {
    service: 'Twilio',
    th: ['โทเคนยืนยันตัวตน Twilio', 'โทเคนของ Twilio'],
    en: ['Twilio auth token', 'authToken', 'token'],
    env: ['TWILIO_AUTH_TOKEN'],
    json: 'auth_token',
    query: 'token',
  },
  'sendgrid-key': generic('SendGrid', 'คีย์ SendGrid', 'SendGrid API key', 'SENDGRID_API_KEY'),
  'stripe-key': generic('Stripe', 'คีย์ Stripe', 'Stripe secret key', 'STRIPE_SECRET_KEY'),
  jwt: { ...generic('Auth', 'โทเคนเข้าสู่ระบบ', 'access token', 'SUPABASE_SERVICE_ROLE_KEY'), json: 'access_token', query: 'token' },
  'pem-private-key': { service: 'SSH', th: ['คีย์ส่วนตัว'], en: ['private key'], env: ['PRIVATE_KEY'], json: 'private_key' },
  'database-url': { service: 'Database', th: ['สตริงเชื่อมต่อฐานข้อมูล'], en: ['database URL'], env: ['DATABASE_URL', 'REDIS_URL'], json: 'databaseUrl' },
  'basic-auth-url': { service: 'Registry', th: ['ลิงก์พร้อมรหัสผ่าน'], en: ['URL with credentials'], env: ['REGISTRY_URL'], json: 'url' },
  'password-assignment': {
    service: 'Database',
    th: ['รหัสผ่าน', 'รหัสผ่านฐานข้อมูล', 'พาสเวิร์ด'],
    en: ['password', 'Password', 'passwd', 'pwd', 'DB password'],
    env: ['DB_PASSWORD', 'POSTGRES_PASSWORD', 'ADMIN_PASSWORD'],
    json: 'password',
    query: 'password',
    url: (value) => `https://admin:${value}@intranet.example.co.th/`,
  },
  'secret-assignment': {
    service: 'API',
    th: ['คีย์', 'คีย์ API', 'โทเคน', 'รหัสลับ', 'ค่าความลับ'],
    en: ['api_key', 'API key', 'secret', 'token', 'client_secret', 'access_token', 'X-API-Key'],
    env: ['API_KEY', 'SECRET_KEY', 'APP_SECRET', 'WEBHOOK_SECRET'],
    json: 'client_secret',
    query: 'api_key',
  },
};
