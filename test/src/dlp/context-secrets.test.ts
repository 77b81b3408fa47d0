import { describe, expect, it } from 'vitest';
import { contextSecretKinds } from '../../../src/dlp/context-secrets.js';
import { scanForCredentials } from '../../../src/dlp/scan.js';
import { randomText } from '../../support/fake-tokens.js';

// Secrets without a prefix, found by the label beside them; hashes, ids, words and placeholders beside the same
// labels pass. Every credential-shaped value is generated.

const hex = '0123456789abcdef';
const base64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const awsSecret = randomText(40, 401, base64);
const lineSecret = randomText(32, 402, hex);
const twilioToken = randomText(32, 403, hex);
const azureKey = `${randomText(86, 404, base64)}==`;
const password = `${randomText(5, 405)}!${randomText(4, 406)}#${randomText(3, 407)}`;
const apiKey = randomText(32, 408);
const hash40 = randomText(40, 409, hex);

function kindsOf(text: string): string[] {
  return contextSecretKinds(text, () => false);
}

describe('context secrets: a labelled value is found', () => {
  const cases: [string, string, string][] = [
    ['Thai AWS label', `คีย์ลับ AWS: ${awsSecret}`, 'aws-secret-key'],
    ['Thai AWS label with คือ', `คีย์ลับของ AWS คือ ${awsSecret} ครับ`, 'aws-secret-key'],
    ['plain key:', `key: ${awsSecret}`, 'aws-secret-key'],
    ['environment variable', `AWS_SECRET_ACCESS_KEY=${awsSecret}`, 'aws-secret-key'],
    ['English sentence with "is"', `Your Secret is ${awsSecret}, keep it private.`, 'aws-secret-key'],
    ['LINE channel secret in JSON', `{"channelSecret": "${lineSecret}"}`, 'line-channel-secret'],
    ['LINE channel secret in Thai', `Channel secret ของ LINE คือ ${lineSecret}`, 'line-channel-secret'],
    ['LINE environment variable', `LINE_CHANNEL_SECRET=${lineSecret}`, 'line-channel-secret'],
    ['Twilio auth token in YAML', `twilio:\n  auth_token: ${twilioToken}`, 'twilio-key'],
    ['Twilio in Thai', `โทเคนยืนยันตัวตน Twilioของคุณคือ ${twilioToken} กรุณาเก็บไว้`, 'twilio-key'],
    ['Azure AccountKey', `AccountKey=${azureKey};EndpointSuffix=core.windows.net`, 'azure-storage-key'],
    ['Azure key1 in bold Markdown', `**key1:** \`${azureKey}\``, 'azure-storage-key'],
    ['password=', `password=${password}`, 'password-assignment'],
    ['JSON password', `{"password": "${password}"}`, 'password-assignment'],
    ['YAML password', `db:\n  password: ${password}\n`, 'password-assignment'],
    ['Markdown table cell', `| user | admin |\n| password | ${password} |`, 'password-assignment'],
    ['backticks', `\`DB_PASSWORD\`: \`${password}\``, 'password-assignment'],
    ['Thai รหัสผ่าน with เป็น', `ตั้งค่ารหัสผ่านเป็น ${password} แล้วลองใหม่`, 'password-assignment'],
    ['Thai พาสเวิร์ด', `พาสเวิร์ด: ${password}`, 'password-assignment'],
    ['Go :=', `password := "${password}"`, 'password-assignment'],
    ['PHP =>', `'pwd' => '${password}'`, 'password-assignment'],
    ['*_PASS', `SMTP_PASS=${password}`, 'password-assignment'],
    ['a password starting with $ and a digit (no variable)', 'pwd: $3287.nairuD', 'password-assignment'],
    ['api_key', `api_key = "${apiKey}"`, 'secret-assignment'],
    ['apiKey (camelCase)', `const apiKey = '${apiKey}';`, 'secret-assignment'],
    ['X-API-Key header', `X-API-Key: ${apiKey}`, 'secret-assignment'],
    ['Bearer token', `Authorization: Bearer ${apiKey}`, 'secret-assignment'],
    ['client secret', `client secret: ${apiKey}`, 'secret-assignment'],
    ['Thai โทเค็น', `โทเค็น: ${apiKey}`, 'secret-assignment'],
    ['Thai คีย์ API', `คีย์ API ของคุณคือ ${apiKey}`, 'secret-assignment'],
    ['a hex token beside token', `token=${hash40}`, 'secret-assignment'],
    ['URL query', `https://api.example.com/v1?api_key=${apiKey}&limit=10`, 'secret-assignment'],
  ];
  it.each(cases)('%s', (_name, text, kind) => {
    expect(kindsOf(text)).toEqual([kind]);
  });
});

describe('context secrets: a labelled value that is no secret passes', () => {
  const cases: [string, string][] = [
    ['a commit hash beside a key label', `commit hash: ${hash40}`],
    ['sha256 beside secret', `secret sha256: ${randomText(64, 410, hex)}`],
    ['an md5 checksum beside a key', `key checksum: ${lineSecret}`],
    ['32 hex beside a bare key', `key: ${lineSecret}`],
    ['a UUID token', 'token: 123e4567-e89b-12d3-a456-426614174000'],
    ['a numeric id', 'token_count: 4096, key: 12345678901234567890, รหัสผ่าน: 48213975'],
    ['a version', 'api key: v1.2.3-beta.4'],
    ['a file path', 'secret: /run/secrets/db_password.txt and key: ~/.ssh/id_ed25519'],
    ['a URL without credentials', 'token: https://example.com/oauth/token'],
    ['an environment reference', 'password: ${DB_PASSWORD} and secret=$APP_SECRET and key: process.env.API_KEY'],
    ['a command substitution and a Windows variable', 'password: $(cat /run/secrets/db) and secret=%APP_SECRET%'],
    ['a template slot', 'password: <your password> and mongodb+srv://<username>:<password>@cluster0.mongodb.net/'],
    ['a call', 'password = getenv("DB_PASSWORD")'],
    ['masked', 'รหัสผ่าน: ******** and password: [REDACTED]'],
    ['well-known placeholders', 'password=changeme, password: password123, pwd: P@ssw0rd, password: admin123'],
    ['too short', 'password: hunter2'],
    ['ordinary words', 'password: required, secret: always, token: valid, key: ArrowUp'],
    ['a name made of words', 'secret: my-app-secret-v2 and api_key: prod_billing_service'],
    ['a Thai value', 'รหัสผ่าน: ไม่มี และคีย์: ยังไม่ได้ตั้ง'],
    ['a table header', '| Key | Value |\n|---|---|\n| timeout | 30 |'],
    ['prose with "is" and "to"', 'The key is important. Set the token to expire in 24 hours. The secret to success is patience.'],
    ['words that contain a label', `monkey: ${apiKey}, keyboard: ${apiKey}, whiskey = ${apiKey}`],
    ['a label that names something else', `key ID: ${apiKey}, TOKEN_URL=${apiKey}, secret-name: ${apiKey}`],
    ['a documentation placeholder', 'api_key: xxxxxxxxxxxxxxxxxxxxxxxx and secret: EXAMPLEKEY1234567890abcdef'],
  ];
  it.each(cases)('%s', (_name, text) => {
    expect(kindsOf(text)).toEqual([]);
  });
});

describe('context secrets inside scanForCredentials', () => {
  it('leaves a value of a known format to its rule (one kind, not two)', () => {
    const text = `DefaultEndpointsProtocol=https;AccountName=saeng;AccountKey=${azureKey};EndpointSuffix=core.windows.net`;
    const scan = scanForCredentials(text);
    expect(scan.found && scan.kinds).not.toContain('azure-storage-key');
    expect(scan.found).toBe(true);
  });

  it('finds labelled values in obfuscated forms too', () => {
    const spaced = [...password].join(' ');
    expect(scanForCredentials(`รหัสผ่าน = ${spaced} ครับ`)).toEqual({ found: true, kinds: ['password-assignment'] });
    expect(scanForCredentials(`"secret": "${apiKey.slice(0, 10)}" + "${apiKey.slice(10)}"`)).toEqual({ found: true, kinds: ['secret-assignment'] });
  });
});
