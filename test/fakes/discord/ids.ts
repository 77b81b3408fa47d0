import { createHmac, randomBytes } from 'node:crypto';
import { SnowflakeUtil } from 'discord.js';
import { randomText } from '../../support/fake-tokens.js';

// Identifiers shaped as Discord's: 17–19 digit snowflakes (@discordjs/rest only finds a route's major parameter in
// ids of that length, so shorter ids would silently merge rate-limit buckets), token-shaped bot tokens generated
// from a fixed seed (no literal token in the repository), and interaction tokens.

export function snowflake(): string {
  return SnowflakeUtil.generate().toString();
}

/** A bot token of Discord's shape: base64(bot id) . 6 chars . 38 chars. */
export function fakeBotToken(botId: string): string {
  return `${Buffer.from(botId).toString('base64url')}.${randomText(6, 91)}.${randomText(38, 92)}`;
}

export function interactionToken(interactionId: string): string {
  return Buffer.from(`interaction:${interactionId}:${randomBytes(48).toString('base64url')}`).toString('base64url');
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

/** The `hm` signature of a signed CDN URL: an HMAC over the path and both timestamps, keyed per fake. */
export function cdnSignature(key: string, path: string, expiresHex: string, issuedHex: string): string {
  return createHmac('sha256', key).update(`${path}|${expiresHex}|${issuedHex}`).digest('hex');
}
