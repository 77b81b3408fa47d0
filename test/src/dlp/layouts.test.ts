import { describe, expect, it } from 'vitest';
import { scanForCredentials } from '../../../src/dlp/scan.js';
import { randomText } from '../../support/fake-tokens.js';
import { lineAccessToken } from './rule-examples/chat-platforms.js';

// The kinds of issue "DLP round three" in every layout an answer writes them in: LINE channel secrets and access
// tokens, passwords (a generic value needs length and character evidence, not just the keyword), and a WireGuard
// private key. Every value is generated.

const hex = '0123456789abcdef';
const base64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const lineSecret = randomText(32, 501, hex);
const lineToken = lineAccessToken(502);
const password = `${randomText(6, 503)}#${randomText(5, 504)}!${randomText(3, 505)}`;

function kindsOf(text: string): string[] {
  const scan = scanForCredentials(text);
  return scan.found ? scan.kinds : [];
}

describe('LINE channel secret: 32 hex beside a LINE or channel-secret label', () => {
  const layouts: [string, string][] = [
    ['env file', `LINE_CHANNEL_SECRET=${lineSecret}`],
    ['JSON', `{"channelId": "1657000000", "channelSecret": "${lineSecret}"}`],
    ['YAML', `line:\n  channel_secret: "${lineSecret}"`],
    ['Thai sentence, Channel secret', `Channel secret ของ LINE คือ ${lineSecret} ครับ`],
    ['Thai sentence, ซีเคร็ต', `ซีเคร็ตของช่อง LINE: ${lineSecret}`],
    ['Thai, Channel ซีเคร็ต', `Channel ซีเคร็ต = ${lineSecret}`],
    ['Markdown table', `| ค่า | ข้อมูล |\n|---|---|\n| Channel secret | ${lineSecret} |`],
    ['code block', `\`\`\`ts\nconst config = { channelSecret: '${lineSecret}' };\n\`\`\``],
  ];
  it.each(layouts)('%s', (_name, text) => {
    expect(kindsOf(text)).toEqual(['line-channel-secret']);
  });
});

describe('LINE long-lived channel access token in every layout', () => {
  const layouts: [string, string][] = [
    ['env file', `LINE_CHANNEL_ACCESS_TOKEN=${lineToken}`],
    ['JSON', `{"channelAccessToken": "${lineToken}"}`],
    ['Thai sentence', `โทเคนของช่อง LINE คือ ${lineToken} ครับ`],
    ['Markdown table', `| ค่า | ข้อมูล |\n|---|---|\n| Channel access token | ${lineToken} |`],
    ['code block', `\`\`\`bash\ncurl -H "Authorization: Bearer ${lineToken}" https://api.line.me/v2/bot/info\n\`\`\``],
    ['bare', lineToken],
  ];
  it.each(layouts)('%s', (_name, text) => {
    expect(kindsOf(text)).toEqual(['line-channel-access-token']);
  });
});

describe('password values in more layouts', () => {
  const layouts: [string, string][] = [
    ['YAML, quoted', `database:\n  user: app\n  password: "${password}"`],
    ['.env', `DB_PASSWORD=${password}`],
    ['JSON', `{"user": "app", "password": "${password}"}`],
    ['connection string Password=', `Server=db.internal;Database=shop;UID=app;Password=${password};`],
    ['connection string pwd=', `DSN=shop;Uid=app;Pwd=${password};`],
    ['Thai รหัสผ่านคือ', `รหัสผ่านคือ ${password} ครับ`],
    ['INI section', `[db]\nhost = 10.0.3.12\npassword = ${password}`],
    ['Markdown table', `| field | value |\n|---|---|\n| password | ${password} |`],
  ];
  it.each(layouts)('%s', (_name, text) => {
    expect(kindsOf(text)).toEqual(['password-assignment']);
  });

  const passing: [string, string][] = [
    ['a word', 'password: sunflower'],
    ['too short to tell', 'password = hunter2'],
    ['stock example', 'DB_PASSWORD=changeme'],
    ['a word and a year', 'password: admin2024'],
    ['empty string', 'password: ""'],
    ['environment lookup', 'password = os.environ["DB_PASSWORD"]'],
    ['shell default', 'DB_PASSWORD=${DB_PASSWORD:?required}'],
  ];
  it.each(passing)('%s passes', (_name, text) => {
    expect(kindsOf(text)).toEqual([]);
  });
});

describe('WireGuard: the private key is a secret, the public key is not', () => {
  const privateKey = `${randomText(43, 506, base64)}=`;
  const publicKey = `${randomText(43, 507, base64)}=`;
  it('blocks [Interface] PrivateKey', () => {
    expect(kindsOf(`[Interface]\nPrivateKey = ${privateKey}\nAddress = 10.8.0.2/24`)).not.toEqual([]);
  });
  it('blocks a private key that starts with / (base64, not a path)', () => {
    expect(kindsOf(`PrivateKey = /${randomText(42, 511, base64)}=`)).not.toEqual([]);
  });
  it('passes [Peer] PublicKey', () => {
    expect(kindsOf(`[Peer]\nPublicKey = ${publicKey}\nAllowedIPs = 0.0.0.0/0`)).toEqual([]);
  });
});

describe('older Entra ID client secrets (no Q~) and Twilio auth tokens: by their label', () => {
  const legacy = randomText(34, 508, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-_@+?');
  const twilioToken = randomText(32, 509, hex);
  const cases: [string, string, string][] = [
    ['AZURE_CLIENT_SECRET', `AZURE_CLIENT_SECRET=${legacy}`, 'azure-client-secret'],
    ['Thai, Azure app', `ซีเคร็ตของแอป Azure: ${legacy}`, 'azure-client-secret'],
    ['a client secret of another vendor', `client_secret: ${legacy}`, 'secret-assignment'],
    ['Twilio auth token label', `TWILIO_AUTH_TOKEN=${twilioToken}`, 'twilio-key'],
    ['account SID and token in JSON', `{"account_sid": "AC${randomText(32, 510, hex)}", "token": "${twilioToken}"}`, 'twilio-key'],
  ];
  it.each(cases)('%s', (_name, text, kind) => {
    expect(kindsOf(text)).toEqual([kind]);
  });
});
