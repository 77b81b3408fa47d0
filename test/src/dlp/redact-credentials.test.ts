import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createLogRedactor, redactCredentials } from '../../../src/dlp/redact-credentials.js';
import { fake, randomText } from '../../support/fake-tokens.js';

const digits = '0123456789';
const upperAlphanumeric = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

// Every credential kind of the DLP rules, as fixtures built at run time.
const credentials: [name: string, value: string, kind: string][] = [
  ['AWS access key id', fake.awsKeyId(), 'aws-access-key'],
  ['GitHub classic token', fake.githubClassic(), 'github-token'],
  ['GitHub OAuth token', fake.githubClassic('gho'), 'github-token'],
  ['GitHub fine-grained token', fake.githubFineGrained(), 'github-token'],
  ['OpenAI legacy key', fake.openaiLegacy(), 'openai-key'],
  ['OpenAI project key', fake.openaiProject(), 'openai-key'],
  ['OpenAI-compatible key', fake.openaiCompatible(), 'openai-key'],
  ['Anthropic key', fake.anthropic(), 'anthropic-key'],
  ['Slack bot token', fake.slackBot(), 'slack-token'],
  ['Slack app token', `xapp-1-A0${randomText(9, 91, upperAlphanumeric)}-${randomText(13, 92, digits)}-${randomText(64, 93)}`, 'slack-token'],
  ['JWT', fake.jwt(), 'jwt'],
  ['Google API key', fake.googleApiKey(), 'google-api-key'],
  ['Stripe live key', fake.stripeLive(), 'stripe-key'],
  ['Telegram bot token', fake.telegramBot(), 'telegram-bot-token'],
];

const awsSecret = fake.awsSecret();
const slackWebhook = fake.slackWebhook();
const pemBlock = fake.pemBlock();
const pemBody = pemBlock.split('\n').slice(1, 3);
const puttyKey = randomText(64, 94);
const configured = `saeng-local-${randomText(24, 95)}`;
const quoted = `pa"ss\\word-${randomText(16, 96)}`;

describe('redactCredentials (plain text)', () => {
  it.each(credentials)('%s → [redacted:<kind>], the text around it kept', (_name, value, kind) => {
    const redacted = redactCredentials(`เรียก API ไม่สำเร็จ: token=${value} (retry later)`);
    expect(redacted).toBe(`เรียก API ไม่สำเร็จ: token=[redacted:${kind}] (retry later)`);
  });

  it('an AWS secret access key beside its label, and a Slack webhook path', () => {
    expect(redactCredentials(`aws_secret_access_key = ${awsSecret}`)).toBe('aws_secret_access_key = [redacted:aws-secret-key]');
    const redacted = redactCredentials(`posting to ${slackWebhook} failed`);
    expect(redacted).toBe('posting to https://[redacted:slack-webhook] failed');
  });

  it('a private key: the whole PEM block, a base64-encoded block, a PuTTY key file', () => {
    const pem = redactCredentials(`key file:\n${pemBlock}\nend of output`);
    expect(pem).toBe('key file:\n[redacted:pem-private-key]\nend of output');
    const encoded = Buffer.from(pemBlock).toString('base64');
    expect(redactCredentials(`data: ${encoded} (k8s)`)).toBe('data: [redacted:pem-private-key] (k8s)');
    const putty = redactCredentials(`PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\n${puttyKey}`);
    expect(putty).toBe('[redacted:pem-private-key]');
  });

  it('configured secrets as exact values, however plain they look', () => {
    expect(redactCredentials(`401 Invalid API key: ${configured}.`, [configured])).toBe('401 Invalid API key: [redacted:configured-secret].');
    expect(redactCredentials('short values are not secrets: abc', ['abc'])).toBe('short values are not secrets: abc');
  });

  it('the bot token of Telegram file and API URLs, whatever the API root and token shape', () => {
    const token = fake.telegramBot();
    expect(redactCredentials(`download failed: https://api.telegram.org/file/bot${token}/photos/file_7.jpg`)).toBe(
      'download failed: https://api.telegram.org/file/bot[redacted:telegram-bot-token]/photos/file_7.jpg',
    );
    expect(redactCredentials('request to http://127.0.0.1:8081/bot123456:test-token/getMe failed')).toBe(
      'request to http://127.0.0.1:8081/bot[redacted:telegram-bot-token]/getMe failed',
    );
  });

  it('leaves ordinary Thai and English log text alone', () => {
    const ordinary = [
      'ร้านเปิด 08:00–20:00 ทุกวัน ราคา 1,250 บาท ติดต่อ https://example.co.th/contact',
      'turn failed: 500 Loading model (conversation telegram:-1001234567890:42)',
      'The secret of the AWS region ap-southeast-1 in Asia/Bangkok is a key: sk-learn, eyes.eyebrows',
      'knowledge: embeddings failed, document indexed for full text only; see /botanical/garden and a3t text',
      'file ./data/kb/3f9a1c2e7b4d5a6f8e9d0c1b2a3f4e5d6c7b8a9f.sqlite opened: 1234567890:abc',
    ];
    for (const text of ordinary) expect(redactCredentials(text)).toBe(text);
  });
});

describe('createLogRedactor (serialized JSON lines)', () => {
  const redact = createLogRedactor([configured, quoted]);
  const line = (fields: Record<string, unknown>) => `${JSON.stringify({ level: 50, time: 1, ...fields })}\n`;

  it.each(credentials)('%s after an escaped newline or quote → redacted, still valid JSON', (_name, value, kind) => {
    const redacted = redact(line({ msg: 'turn failed', error: `500 {"error":"bad key\n${value}"} "${value}"` }));
    expect(redacted).not.toContain(value);
    expect(JSON.parse(redacted)).toMatchObject({ msg: 'turn failed', error: `500 {"error":"bad key\n[redacted:${kind}]"} "[redacted:${kind}]"` });
  });

  it('configured secrets, also with " and \\ escaped inside a JSON string', () => {
    const redacted = redact(line({ msg: 'model call failed', error: `key ${configured} / ${quoted}`, nested: { body: quoted } }));
    expect(redacted).not.toContain(configured);
    expect(JSON.parse(redacted)).toMatchObject({
      error: 'key [redacted:configured-secret] / [redacted:configured-secret]',
      nested: { body: '[redacted:configured-secret]' },
    });
  });

  it('a secret that starts inside an escape sequence is widened to the whole sequence (the line stays JSON)', () => {
    const secret = `n${randomText(20, 97)}`;
    const redacted = createLogRedactor([secret])(line({ msg: 'x', error: `first line\n${secret.slice(1)}` }));
    expect(JSON.parse(redacted)).toMatchObject({ error: 'first line[redacted:configured-secret]' });
  });

  it('a whole PEM block inside a JSON string, up to its END line', () => {
    const redacted = redact(line({ msg: 'tool threw', error: `cannot parse ${pemBlock} as a certificate`, tool: 'read_file' }));
    for (const part of pemBody) expect(redacted).not.toContain(part);
    expect(JSON.parse(redacted)).toMatchObject({ error: 'cannot parse [redacted:pem-private-key] as a certificate', tool: 'read_file' });
  });

  it('a Telegram file URL in a JSON field', () => {
    const token = fake.telegramBot();
    const redacted = redact(line({ msg: 'telegram: download failed', url: `https://api.telegram.org/file/bot${token}/documents/a.pdf` }));
    expect(JSON.parse(redacted)).toMatchObject({ url: 'https://api.telegram.org/file/bot[redacted:telegram-bot-token]/documents/a.pdf' });
  });

  it('returns a line without credentials unchanged (same string)', () => {
    const ordinary = line({ msg: 'turn', conversation: 'console:local', guards: ['sources:append'], text: 'สวัสดีค่ะ\n"ยินดี" \\ ต้อนรับ' });
    expect(redact(ordinary)).toBe(ordinary);
  });
});

describe('createLogRedactor: properties', () => {
  const secret = `n3cr"t\\${randomText(12, 98)}`; // starts with n: `\n` + its tail looks like it
  const redact = createLogRedactor([secret]);
  const pieces = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.constantFrom('\\', '"', '\n', '\u0001', 'u00', '\\u', '/bot', ...credentials.map(([, value]) => value), secret, `\n${secret.slice(1)}`, pemBlock),
  );

  it('any line stays valid JSON, and the configured secret never survives', () => {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), fc.array(pieces, { maxLength: 4 }), (first, second) => {
        const original = { level: 30, msg: first.join(''), error: second.join('') };
        const parsed = JSON.parse(redact(`${JSON.stringify(original)}\n`)) as Record<string, string>;
        expect(parsed.level).toBe(30);
        expect(`${parsed.msg}${parsed.error}`).not.toContain(secret);
      }),
      { numRuns: 500, seed: 20_261_129 }, // deterministic: the same 500 lines every run
    );
  });
});
