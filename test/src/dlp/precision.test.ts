import { describe, expect, it } from 'vitest';
import { scanForCredentials } from '../../../src/dlp/scan.js';
import { Draw } from '../../support/dlp-corpus/draw.js';
import { technicalClasses } from '../../support/dlp-corpus/negatives-technical.js';
import { randomText } from '../../support/fake-tokens.js';

// What is never blocked: public keys (SSH, WireGuard, PEM, PGP, JWK), ids and digests, templates and masked values,
// assignments whose value is a variable, a call or empty, and "password" as a field name. Each class is the
// corpus's negative class (test/support/dlp-corpus/negatives-technical.ts) with a few hand-written lines.

const hex = '0123456789abcdef';

function kindsOf(text: string): string[] {
  const scan = scanForCredentials(text);
  return scan.found ? scan.kinds : [];
}

const classes = ['ssh-public-key', 'wireguard-public-key', 'public-block', 'id-and-digest', 'template-or-mask', 'variable-assignment', 'field-name'];

describe.each(classes)('never blocked: %s (corpus class)', (name) => {
  const make = technicalClasses[name];
  if (!make) throw new Error(`no negative class ${name}`);
  const samples = make(new Draw(`precision/${name}`));
  it.each(samples.map((text, index) => [index, text] as const))('sample %i', (_index, text) => {
    expect(kindsOf(text)).toEqual([]);
  });
});

describe('never blocked: hand-written lines', () => {
  const lines: [string, string][] = [
    ['UUID beside token', `token_id: 3f2b8c1e-${randomText(4, 601, hex)}-4a6b-9c2d-${randomText(12, 602, hex)}`],
    ['git SHA beside commit', `commit: ${randomText(40, 603, hex)}`],
    ['sha256 beside a key label', `api_key_sha256: ${randomText(64, 604, hex)}`],
    ['Docker digest', `docker pull ghcr.io/saeng-bot/saeng@sha256:${randomText(64, 605, hex)}`],
    ['S3 VersionId', `"VersionId": "${randomText(32, 606)}"`],
    ['placeholder xxxx', 'OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'],
    ['placeholder your_token_here', 'SLACK_BOT_TOKEN=your_token_here'],
    ['<TOKEN>', 'curl -H "Authorization: Bearer <TOKEN>" https://api.example.com'],
    ['${GITHUB_TOKEN}', 'git clone https://x-access-token:${GITHUB_TOKEN}@github.com/o/r.git'],
    ['{{ secrets.X }}', 'token: ${{ secrets.NPM_TOKEN }}'],
    ['%API_KEY%', 'curl -H "X-API-Key: %API_KEY%" https://api.example.com'],
    ['$env:KEY', '$headers = @{ "api-key" = $env:AZURE_OPENAI_KEY }'],
    ['masked sk-…abcd', 'คีย์ที่ใช้อยู่: sk-…a1b2'],
    ['masked ghp_****', 'GITHUB_TOKEN=ghp_****************************a1b2'],
    ['token = getToken()', 'const token = await getToken(scope);'],
    ['password from a vault', 'password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256'],
    ['documentation table', "| Name | Type | Description |\n|---|---|---|\n| password | string | the user's password |\n| token | string | an access token |"],
    ['form label', '<label>Password <input type="password" name="password" required minlength="12"></label>'],
    ['public key in Thai', `คีย์สาธารณะของเครื่องคือ ${randomText(43, 607)}= ครับ`],
    ['ssh-keygen fingerprint', `256 SHA256:${randomText(43, 608)} somchai@laptop (ED25519)`],
  ];
  it.each(lines)('%s', (_name, text) => {
    expect(kindsOf(text)).toEqual([]);
  });
});
