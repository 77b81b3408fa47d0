import { randomText } from '../../../support/fake-tokens.js';
import { alphabets, randomBytes, type KindExamples } from './examples.js';

const url64 = (length: number, seed: number) => randomText(length, seed, alphabets.base64url);

/** base64 (no padding, as Discord writes it) of a snowflake user id of `length` digits. */
function snowflakePart(length: number, seed: number): string {
  const id = `1${randomText(length - 1, seed, alphabets.digits)}`;
  return Buffer.from(id).toString('base64').replace(/=+$/, '');
}

/** A long-lived LINE channel access token: 128 random bytes in standard base64 (172 characters, one `=`). */
export function lineAccessToken(seed: number): string {
  return randomBytes(128, seed).toString('base64');
}

export const chatPlatformExamples: KindExamples[] = [
  {
    kind: 'discord-bot-token',
    positives: [
      {
        name: 'current token (18-digit id, 38-character HMAC)',
        make: (seed) => `DISCORD_TOKEN=${snowflakePart(18, seed)}.${url64(6, seed + 1)}.${url64(38, seed + 2)}`,
      },
      { name: '19-digit id', make: (seed) => `${snowflakePart(19, seed + 3)}.${url64(6, seed + 4)}.${url64(38, seed + 5)}` },
      {
        name: 'older token (27-character HMAC)',
        make: (seed) => `client.login("${snowflakePart(18, seed + 6)}.${url64(6, seed + 7)}.${url64(27, seed + 8)}")`,
      },
    ],
    negatives: [
      { name: 'first part is not a snowflake', text: `${Buffer.from('1234567890abcdefgh').toString('base64')}.${url64(6, 1)}.${url64(38, 2)}` },
      { name: 'dotted identifiers', text: 'com.example.saeng and org.apache.commons.lang3.StringUtils' },
      { name: 'three-part version string', text: 'release MTIzNDU2Nzg5.012345.abcdefghijklmnopqrstuvwxyz0' },
      { name: 'placeholder token', text: 'DISCORD_TOKEN=your-bot-token-here' },
    ],
  },
  {
    kind: 'discord-webhook',
    positives: [
      {
        name: 'discord.com',
        make: (seed) => `DISCORD_WEBHOOK_URL=https://discord.com/api/webhooks/1${randomText(18, seed, alphabets.digits)}/${url64(68, seed + 1)}`,
      },
      { name: 'discordapp.com', make: (seed) => `https://discordapp.com/api/webhooks/1${randomText(17, seed + 2, alphabets.digits)}/${url64(68, seed + 3)}` },
      { name: 'canary host', make: (seed) => `https://canary.discord.com/api/webhooks/1${randomText(18, seed + 4, alphabets.digits)}/${url64(68, seed + 5)}` },
      {
        name: 'ptb host, API version',
        make: (seed) => `https://ptb.discord.com/api/v10/webhooks/1${randomText(18, seed + 6, alphabets.digits)}/${url64(68, seed + 7)}`,
      },
      {
        name: 'in a curl command',
        make: (seed) =>
          `curl -X POST -H "Content-Type: application/json" -d '{"content":"hi"}' "https://discord.com/api/webhooks/1${randomText(18, seed + 8, alphabets.digits)}/${url64(68, seed + 9)}?wait=true"`,
      },
    ],
    negatives: [
      { name: 'documentation template', text: 'POST https://discord.com/api/webhooks/{webhook.id}/{webhook.token}' },
      { name: 'placeholder token', text: `https://discord.com/api/webhooks/123456789012345678/${'x'.repeat(68)}` },
      { name: 'a channel link', text: 'https://discord.com/channels/1234567890123456789/1234567890123456780' },
      { name: 'token too short', text: `https://discord.com/api/webhooks/123456789012345678/${url64(30, 13)}` },
    ],
  },
  {
    kind: 'line-channel-access-token',
    positives: [
      { name: 'environment variable', make: (seed) => `LINE_CHANNEL_ACCESS_TOKEN=${lineAccessToken(seed)}` },
      { name: 'Authorization header', make: (seed) => `Authorization: Bearer ${lineAccessToken(seed + 1)}` },
      { name: 'bare', make: (seed) => lineAccessToken(seed + 2) },
    ],
    negatives: [
      {
        name: 'base64 of a sentence',
        text: Buffer.from('The quick brown fox jumps over the lazy dog, then naps in the sun. '.repeat(2).slice(0, 128)).toString('base64'),
      },
      { name: 'without padding', text: lineAccessToken(7).replace(/=+$/, 'A') },
      { name: 'a SHA-512 digest in base64', text: `sha512-${randomBytes(64, 8).toString('base64')}` },
      { name: 'a base64 image', text: `data:image/png;base64,iVBORw0KGgo${randomBytes(900, 9).toString('base64')}` },
      { name: 'channel secret (32 hex, no label)', text: `ค่า ${randomText(32, 10, alphabets.hex)} ในตาราง` },
    ],
  },
  {
    kind: 'telegram-bot-token',
    positives: [
      { name: '35 characters after the colon', make: (seed) => `TELEGRAM_BOT_TOKEN=7${randomText(9, seed, alphabets.digits)}:AA${url64(33, seed + 1)}` },
      { name: '34 characters after the colon', make: (seed) => `${'6'}${randomText(9, seed + 2, alphabets.digits)}:AA${url64(32, seed + 3)}` },
      { name: '8-digit bot id', make: (seed) => `1${randomText(7, seed + 4, alphabets.digits)}:AA${url64(33, seed + 5)}` },
      { name: '36 characters after the colon', make: (seed) => `8${randomText(9, seed + 6, alphabets.digits)}:AA${url64(34, seed + 7)}` },
    ],
    negatives: [
      { name: 'times and ratios', text: 'ประชุม 12:30 น. อัตราส่วน 16:9 และ 1234567:890' },
      { name: 'placeholder', text: 'TELEGRAM_BOT_TOKEN=123456789:AAxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' },
      { name: 'bot id too short', text: `1234567:AA${url64(33, 11)}` },
      { name: 'too short after the colon', text: `7123456789:AA${url64(20, 12)}` },
    ],
  },
];
