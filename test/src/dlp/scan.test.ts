import { describe, expect, it } from 'vitest';
import { dlpNotice, scanForCredentials } from '../../../src/dlp/scan.js';
import { fake, randomText } from '../../support/fake-tokens.js';

const zeroWidth = '\u200b';

function kindsOf(text: string, secrets?: readonly string[]): string[] {
  const scan = scanForCredentials(text, { secrets });
  return scan.found ? scan.kinds : [];
}

describe('scanForCredentials: must fire', () => {
  const github = fake.githubClassic();
  const cases: [string, string, string][] = [
    ['AWS access key id', `ตั้งค่า AWS_ACCESS_KEY_ID=${fake.awsKeyId()} แล้วรันใหม่`, 'aws-access-key'],
    ['AWS secret key with a label', `aws_secret_access_key = "${fake.awsSecret()}"`, 'aws-secret-key'],
    ['AWS secret key beside a key id', `id: ${fake.awsKeyId()}\nkey: ${fake.awsSecret()}`, 'aws-secret-key'],
    ['GitHub classic token', `โทเค็นคือ ${github}`, 'github-token'],
    ['GitHub OAuth token', `token=${fake.githubClassic('gho')}`, 'github-token'],
    ['GitHub fine-grained token', `GITHUB_TOKEN=${fake.githubFineGrained()}`, 'github-token'],
    ['OpenAI legacy key', `OPENAI_API_KEY=${fake.openaiLegacy()}`, 'openai-key'],
    ['OpenAI project key', `key: ${fake.openaiProject()}`, 'openai-key'],
    ['OpenAI-compatible key without marker', `DeepSeek key ${fake.openaiCompatible()}`, 'openai-key'],
    ['Anthropic key', fake.anthropic(), 'anthropic-key'],
    ['Slack bot token', `SLACK_BOT_TOKEN=${fake.slackBot()}`, 'slack-token'],
    ['Slack webhook URL', `ส่งไปที่ ${fake.slackWebhook()} ได้เลย`, 'slack-webhook'],
    ['JWT', `Authorization: Bearer ${fake.jwt()}`, 'jwt'],
    ['PEM block', fake.pemBlock(), 'pem-private-key'],
    ['PEM header alone (output cut mid-key)', 'นี่คือคีย์:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA', 'pem-private-key'],
    ['encrypted PEM header and one body line', `-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkqhkiG9w0BBQ0w${randomText(40, 54)}`, 'pem-private-key'],
    ['PGP private key block', `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\nlQOYBF${randomText(58, 55)}`, 'pem-private-key'],
    ['base64-encoded PEM', Buffer.from('-----BEGIN PRIVATE KEY-----\nMIIEvQ').toString('base64'), 'pem-private-key'],
    ['PuTTY key file', 'PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none', 'pem-private-key'],
    ['Google API key', `GOOGLE_API_KEY=${fake.googleApiKey()}`, 'google-api-key'],
    ['Stripe live key', `stripe: ${fake.stripeLive()}`, 'stripe-key'],
    ['Telegram bot token', `TELEGRAM_BOT_TOKEN=${fake.telegramBot()}`, 'telegram-bot-token'],
    // Obfuscated forms.
    ['zero-width characters inside a token', `${github.slice(0, 10)}${zeroWidth}${github.slice(10, 20)}\u2060${github.slice(20)}`, 'github-token'],
    ['Markdown escape ghp\\_', `โทเค็น: ghp\\_${github.slice(4)}`, 'github-token'],
    ['line-wrapped token', `token:\n${github.slice(0, 20)}\n${github.slice(20)}`, 'github-token'],
    ['line-wrapped token in a quote', `> ${github.slice(0, 25)}\n> ${github.slice(25)}`, 'github-token'],
    ['full-width letters', fake.stripeLive().replace('sk_live_', 'ｓｋ＿ｌｉｖｅ＿'), 'stripe-key'],
    ['Markdown-escaped PEM header', `\\-\\-\\-\\-\\-BEGIN RSA PRIVATE KEY\\-\\-\\-\\-\\-\nMIIEpAIBAAKCAQEA${randomText(48, 56)}`, 'pem-private-key'],
    ['groups of 4 joined by hyphens', `โทเค็น: ${github.match(/.{1,4}/g)?.join('-') ?? ''} ครับ`, 'github-token'],
    ['a space between every character', `token: ${[...github].join(' ')}`, 'github-token'],
    ['a hyphen between every character', `token: ${[...fake.googleApiKey()].join('-')}`, 'google-api-key'],
    ['"first half" + "second half"', `ค่าคือ "${github.slice(0, 18)}" + "${github.slice(18)}" ครับ`, 'github-token'],
    ['a backtick inside a token', `ใช้ \`${github.slice(0, 15)}\`${github.slice(15)}\``, 'github-token'],
    ['a fixed-length token split before a word', `คีย์:\n${fake.awsKeyId().slice(0, 10)}\n${fake.awsKeyId().slice(10)}\nUse it`, 'aws-access-key'],
    ['a PEM header wrapped between words', `-----BEGIN OPENSSH PRIVATE\nKEY-----\nb3BlbnNzaC1rZXktdjEAAAAA${randomText(48, 57)}`, 'pem-private-key'],
    // Labels, no prefix (context-secrets.ts).
    ['AWS secret key labelled in Thai only', `คีย์ลับ AWS: ${fake.awsSecret()}`, 'aws-secret-key'],
    ['AWS secret key labelled only key:', `key: ${fake.awsSecret()}`, 'aws-secret-key'],
    ['LINE channel secret', `LINE_CHANNEL_SECRET=${randomText(32, 94, '0123456789abcdef')}`, 'line-channel-secret'],
    ['password assignment', `password=${randomText(6, 95)}!${randomText(6, 96)}`, 'password-assignment'],
    ['generic API key assignment', `{"api_key": "${randomText(32, 97)}"}`, 'secret-assignment'],
  ];
  it.each(cases)('%s', (_name, text, kind) => {
    expect(kindsOf(text)).toContain(kind);
  });

  it('blocks the exact value of a configured secret, also split by zero-width characters', () => {
    const secret = 'line-channel-secret-4f9a2c';
    expect(kindsOf(`ค่าคือ ${secret}`, [secret])).toEqual(['configured-secret']);
    expect(kindsOf(`ค่าคือ ${secret.slice(0, 8)}${zeroWidth}${secret.slice(8)}`, [secret])).toEqual(['configured-secret']);
    expect(kindsOf('ไม่มีอะไรลับ', [secret])).toEqual([]);
  });

  it('finds a token placed across the boundary of two scan windows', () => {
    const padding = 'ข้อความทั่วไป '.repeat(4_680); // ~65,520 characters, so the token straddles 65,536
    expect(kindsOf(`${padding}${fake.googleApiKey()} end`)).toContain('google-api-key');
  });

  it('reports several kinds at once', () => {
    expect(kindsOf(`${fake.awsKeyId()} and ${fake.githubClassic()}`)).toEqual(['aws-access-key', 'github-token']);
  });
});

describe('scanForCredentials: must not fire', () => {
  const base64Image = `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA${randomText(3000, 91, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/')}==`;
  const cases: [string, string][] = [
    ['UUID', 'รหัสคำสั่งซื้อ 123e4567-e89b-12d3-a456-426614174000'],
    ['git SHA', 'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 fixed the bug'],
    ['git SHA beside an "aws secret" label', 'the aws secret rotation landed in 9fceb02d0ae598e95dc970b74767f19372d61af8'],
    ['base64 image data', base64Image],
    ['Thai prose', 'กรุงเทพมหานครเป็นเมืองหลวงของประเทศไทย มีประชากรประมาณ 10 ล้านคน'],
    ['"task-" and "sk-" in prose', 'task-1234 is done; the sk- prefix marks OpenAI keys; we use sk-learn and risk-free plans'],
    ['a long sk- slug without digits', 'see sk-this-is-a-very-long-project-name-for-the-docs-site'],
    ['AWS documentation key id', 'export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE'],
    ['AWS documentation secret', 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'],
    ['GitHub placeholder', 'GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
    ['OpenAI placeholder', 'OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
    ['sequential fixture', 'OPENAI_API_KEY=sk-1234567890abcdef1234567890abcdef1234'],
    ['Slack placeholder', 'SLACK_BOT_TOKEN=xoxb-xxxxxxxxxxxx-xxxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx'],
    ['Slack documentation webhook', 'https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX'],
    ['JWT-shaped text that does not decode', 'eyJxxxxxxxxxxxx.eyJyyyyyyyyyyyyyy.zzzzzz'],
    ['DNA sequence after an AWS-like prefix', 'ACCAGTTGACGTACGTAGCT is the primer'],
    ['a random 40-character id without an AWS label', `request id ${randomText(40, 93)}`],
    ['times and ratios', 'ประชุม 12:30 น. อัตราส่วน 16:9 และ 1234567:890'],
    ['the word PRIVATE KEY in prose', 'Never paste your private key into chat.'],
    ['a PEM header named in prose, no key body', 'the file should begin with `-----BEGIN OPENSSH PRIVATE KEY-----` and end with its END line'],
    ['a configured secret shorter than 8 characters is ignored', 'the word short appears'],
    ['hyphenated words and grades', 'A state-of-the-art, well-known method; grades A-B-C-D; call 081-234-5678 on 2026-12-31.'],
    ['a spaced heading and a Markdown table', 'S U M M A R Y\n\n| Key | Value |\n|---|---|\n| timeout | 30 |'],
    ['labels with ordinary values', 'password: <your password>, รหัสผ่าน: ********, password=changeme, token: valid for 24 hours'],
    ['a hash beside a hash label', `commit hash: ${randomText(40, 98, '0123456789abcdef')} and checksum key: ${randomText(32, 99, '0123456789abcdef')}`],
    ['a UUID and an id beside token labels', 'token: 123e4567-e89b-12d3-a456-426614174000, token_id=918273645'],
    ['code with concatenation and code spans', 'const url = "https://" + host + "/api"; run `npm test`, then `node main.js`.'],
  ];
  it.each(cases)('%s', (_name, text) => {
    expect(kindsOf(text, ['short'])).toEqual([]);
  });
});

describe('dlpNotice', () => {
  it('is Thai by default and English on request, and never empty', () => {
    expect(dlpNotice('th')).toMatch(/[ก-๙]/);
    expect(dlpNotice('en')).toMatch(/blocked/);
  });
});
