// The fake Discord for tests that drive the real discord.js 14:
//   const fake = await startFakeDiscord({ guilds: [{ channels: [{ name: 'general' }] }] });
//   const client = new Client({ intents, rest: { api: fake.apiUrl, cdn: fake.cdnUrl } });
//   await client.login(fake.token);              // GET /gateway/bot, then HELLO → IDENTIFY → READY → GUILD_CREATE
//   await fake.dispatchMessage({ channelId: fake.channel('general').id, author, content: `<@${fake.botUser.id}> hi` });
// At the end `await client.destroy()`, then `await fake.close()`. The gateway is plain JSON: do not install zlib-sync.

export { discordErrors, invalidFormBody, rateLimited, type DiscordErrorBody, type FailureResponse, type RateLimitOptions } from './api-error.js';
export type { CallOutcome, CallPredicate, DiscordCall } from './call-log.js';
export type { CallPattern } from '../common/call-pattern.js';
export type { AttachmentOptions } from './cdn.js';
export {
  discordUser,
  type ChannelSpec,
  type FakeGuild,
  type GuildSpec,
  type MemberSpec,
  type RoleSpec,
  type ThreadSpec,
  type WireChannel,
} from './fixtures.js';
export type { GatewayClose, IdentifyRecord } from './gateway.js';
export { commandOption, type IncomingInteractionSpec } from './interaction-create.js';
export type { IncomingMessageSpec } from './message-create.js';
export type { UploadedFile } from './request-body.js';
export { startFakeDiscord, type FakeDiscord, type FakeDiscordOptions } from './server.js';
export type { DmChannel, InteractionRecord } from './state.js';
