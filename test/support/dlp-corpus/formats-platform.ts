import { alphabets, type Draw } from './draw.js';
import type { CredentialFormat } from './format.js';

// Chat-platform credentials: Slack, and the three platforms Saeng itself runs on (Discord, LINE, Telegram).

/** A Discord snowflake: milliseconds since 2015 (up to 2026) shifted left 22 bits, in decimal (18–19 digits). */
export function snowflake(draw: Draw): string {
  const milliseconds = BigInt(draw.int(10_000_000, 36_000_000)) * 10_000n + BigInt(draw.int(0, 9_999));
  return ((milliseconds << 22n) + BigInt(draw.int(0, 4_194_303))).toString();
}

export const platformFormats: readonly CredentialFormat[] = [
  {
    kind: 'slack-token',
    name: 'xoxb',
    make: (draw) => `xoxb-${draw.number(draw.int(10, 13))}-${draw.number(draw.int(10, 13))}-${draw.text(24)}`,
  },
  {
    kind: 'slack-token',
    name: 'xoxp',
    make: (draw) => `xoxp-${draw.number(draw.int(10, 13))}-${draw.number(12)}-${draw.number(13)}-${draw.text(32, alphabets.hex)}`,
  },
  { kind: 'slack-token', name: 'xoxb-legacy', make: (draw) => `xoxb-${draw.number(draw.int(8, 12))}-${draw.text(24)}` },
  {
    kind: 'slack-token',
    name: 'xoxs',
    make: (draw) => `xoxs-${draw.number(10)}-${draw.number(12)}-${draw.number(12)}-${draw.text(64, alphabets.hex)}`,
  },
  { kind: 'slack-token', name: 'xoxa-2', make: (draw) => `xoxa-2-${draw.number(12)}-${draw.number(12)}-${draw.number(12)}-${draw.text(64, alphabets.hex)}` },
  { kind: 'slack-token', name: 'xoxe.xoxp', make: (draw) => `xoxe.xoxp-1-${draw.text(163, alphabets.upperAlnum + alphabets.lower)}` },
  { kind: 'slack-token', name: 'xoxe.xoxb', make: (draw) => `xoxe.xoxb-1-${draw.text(163, alphabets.upperAlnum + alphabets.lower)}` },
  { kind: 'slack-token', name: 'xoxe-refresh', make: (draw) => `xoxe-1-${draw.text(146, alphabets.upperAlnum)}` },
  {
    kind: 'slack-token',
    name: 'xapp',
    make: (draw) => `xapp-1-A${draw.text(10, alphabets.upperAlnum)}-${draw.number(13)}-${draw.text(64, alphabets.hex)}`,
  },
  {
    kind: 'slack-webhook',
    name: 'services',
    make: (draw) => `https://hooks.slack.com/services/T${draw.text(8, alphabets.upperAlnum)}/B${draw.text(10, alphabets.upperAlnum)}/${draw.text(24)}`,
  },
  {
    kind: 'slack-webhook',
    name: 'workflows',
    make: (draw) =>
      `https://hooks.slack.com/workflows/T${draw.text(8, alphabets.upperAlnum)}/A${draw.text(10, alphabets.upperAlnum)}/${draw.number(18)}/${draw.text(24)}`,
  },
  {
    kind: 'slack-webhook',
    name: 'triggers',
    make: (draw) => `https://hooks.slack.com/triggers/T${draw.text(8, alphabets.upperAlnum)}/${draw.number(13)}/${draw.text(32, alphabets.hex)}`,
  },
  {
    // base64(the bot's user id).base64url(timestamp).HMAC — the HMAC was 27 characters, is 38 today.
    kind: 'discord-bot-token',
    name: 'hmac-38',
    make: (draw) =>
      `${Buffer.from(snowflake(draw)).toString('base64').replace(/=+$/, '')}.${draw.text(6, alphabets.base64url)}.${draw.text(38, alphabets.base64url)}`,
  },
  {
    kind: 'discord-bot-token',
    name: 'hmac-27',
    make: (draw) =>
      `${Buffer.from(snowflake(draw)).toString('base64').replace(/=+$/, '')}.${draw.text(6, alphabets.base64url)}.${draw.text(27, alphabets.base64url)}`,
  },
  // Discord webhook URL (https://discord.com/developers/docs/resources/webhook): the webhook's snowflake id and its
  // 68-character base64url token, on discord.com, the older discordapp.com and the canary/ptb clients' hosts.
  ...['discord.com', 'discordapp.com', 'canary.discord.com', 'ptb.discord.com'].map((host): CredentialFormat => ({
    kind: 'discord-webhook',
    name: host,
    make: (draw) => `https://${host}/api/webhooks/${snowflake(draw)}/${draw.text(68, alphabets.base64url)}`,
  })),
  // A long-lived channel access token: 171 base64 characters and "=" (v2.1 tokens are JWTs, covered by jwt).
  { kind: 'line-channel-access-token', name: 'long-lived', labelled: true, make: (draw) => `${draw.text(171, alphabets.base64)}=` },
  { kind: 'line-channel-secret', name: 'hex-32', labelled: true, make: (draw) => draw.text(32, alphabets.hex) },
  {
    kind: 'telegram-bot-token',
    name: 'colon-35',
    make: (draw) => `${draw.number(draw.int(9, 10))}:AA${draw.pick(['E', 'F', 'G', 'H'])}${draw.text(32, alphabets.base64url)}`,
  },
  { kind: 'telegram-bot-token', name: 'colon-34', make: (draw) => `${draw.number(draw.int(8, 10))}:AA${draw.text(32, alphabets.base64url)}` },
];
