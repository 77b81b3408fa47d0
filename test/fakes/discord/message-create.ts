import {
  GatewayIntentBits,
  MessageType,
  type APIAttachment,
  type APIStickerItem,
  type MessageFlags,
  type APIEmbed,
  type APIMessage,
  type APIUser,
} from 'discord.js';
import type { FakeGuild } from './fixtures.js';
import { snowflake } from './ids.js';
import { parseMentions, resolveUsers } from './mentions.js';
import type { FakeDiscordState } from './state.js';

// MESSAGE_CREATE as the gateway sends it to a bot: `guild_id` and `member` (without `user`) in a guild, mentioned
// users each with their `member`, `mention_roles`, `mention_everyone`, a reply's `message_reference` and full
// `referenced_message` (type 19), and `channel_type`. Without the MessageContent intent, content, embeds, attachments and components
// arrive empty unless the message is a DM, the bot's own, or mentions the bot (developers/events/gateway.mdx).
// Without GuildMessages / DirectMessages the message is not delivered at all.

export interface IncomingMessageSpec {
  /** A guild channel, thread, or DM channel (`fake.dmChannel(user).id`). */
  channelId: string;
  author: APIUser;
  content?: string;
  /** Default: the known users of the content's `<@id>` tokens. */
  mentions?: APIUser[];
  /** Default: the content's `<@&id>` tokens. */
  mentionRoles?: string[];
  /** Default: whether the content holds `@everyone` or `@here`. */
  mentionEveryone?: boolean;
  attachments?: APIAttachment[];
  embeds?: APIEmbed[];
  /** Stickers sent with the message (`sticker_items`: id, name, format_type); not hidden without MessageContent. */
  stickers?: APIStickerItem[];
  /** Message flags, e.g. `MessageFlags.IsVoiceMessage` for a voice message (its one attachment is the audio). */
  flags?: MessageFlags;
  /** The replied-to message (sent by the bot or dispatched before). */
  replyTo?: APIMessage;
  /** Whether a reply pings the replied-to author (default true, Discord's default). */
  replyPing?: boolean;
  id?: string;
}

function memberOf(guild: FakeGuild, user: APIUser): Record<string, unknown> {
  const { user: _user, ...member } = guild.members.find((each) => each.user.id === user.id) ?? {
    user,
    roles: [],
    nick: null,
    avatar: null,
    joined_at: guild.joinedAt,
    deaf: false,
    mute: false,
    flags: 0,
    premium_since: null,
    pending: false,
  };
  return member;
}

/** The payload to dispatch, or undefined when Discord would not send it to this bot's intents. */
export function messageCreatePayload(state: FakeDiscordState, spec: IncomingMessageSpec, intents: number): Record<string, unknown> | undefined {
  const channel = state.channels.get(spec.channelId);
  if (!channel) throw new Error(`dispatchMessage: the fake knows no channel ${spec.channelId}`);
  const guild = state.guildOf(spec.channelId);
  const needed = guild ? GatewayIntentBits.GuildMessages : GatewayIntentBits.DirectMessages;
  const content = spec.content ?? '';
  const parsed = parseMentions(content);
  const known = new Map([state.bot, ...(guild?.members.map((member) => member.user) ?? [])].map((user) => [user.id, user]));
  const mentions = [...(spec.mentions ?? resolveUsers(parsed.users, known))];
  const replied = spec.replyTo;
  if (replied && spec.replyPing !== false && !mentions.some((user) => user.id === replied.author.id)) mentions.push(replied.author);
  const message: APIMessage & { guild_id?: string } = {
    id: spec.id ?? snowflake(),
    channel_id: spec.channelId,
    author: spec.author,
    content,
    timestamp: new Date(state.clock()).toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: spec.mentionEveryone ?? parsed.everyone,
    mentions,
    mention_roles: spec.mentionRoles ?? parsed.roles,
    attachments: spec.attachments ?? [],
    embeds: spec.embeds ?? [],
    pinned: false,
    type: replied ? MessageType.Reply : MessageType.Default,
    flags: spec.flags ?? (0 as MessageFlags),
    components: [],
  };
  if (spec.stickers) message.sticker_items = spec.stickers;
  if (guild) message.guild_id = guild.id;
  if (replied) {
    message.message_reference = { type: 0, message_id: replied.id, channel_id: replied.channel_id, ...(guild ? { guild_id: guild.id } : {}) };
    message.referenced_message = replied;
  }
  state.rememberMessage(message);
  if ((intents & needed) === 0) return undefined;
  const readable =
    !guild || spec.author.id === state.bot.id || mentions.some((user) => user.id === state.bot.id) || (intents & GatewayIntentBits.MessageContent) !== 0;
  // `channel_type` is what lets discord.js build a partial DM channel (Partials.Channel) for an uncached DM.
  const delivered: Record<string, unknown> = {
    ...message,
    channel_type: channel.type,
    ...(readable ? {} : { content: '', embeds: [], attachments: [], components: [] }),
  };
  if (guild) {
    delivered.member = memberOf(guild, spec.author);
    delivered.mentions = mentions.map((user) => ({ ...user, member: memberOf(guild, user) }));
  }
  return delivered;
}
