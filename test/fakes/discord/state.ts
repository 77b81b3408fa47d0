import { ChannelType, PermissionFlagsBits, type APIApplicationCommand, type APIMessage, type APIUser } from 'discord.js';
import type { AttachmentStore } from './cdn.js';
import type { FakeGuild, WireChannel } from './fixtures.js';
import { snowflake } from './ids.js';

// What the fake Discord remembers: the bot and its application, the guilds with their channels and threads, DM
// channels, every message by channel (dispatched or sent), the bot's sent messages in order (edits change them in
// place), registered commands per scope, and the interactions dispatched to the bot.

export interface DmChannel {
  id: string;
  type: ChannelType.DM;
  recipients: APIUser[];
  last_message_id: string | null;
  flags: number;
}

export type KnownChannel = WireChannel | DmChannel;

export interface InteractionRecord {
  id: string;
  token: string;
  kind: 'command' | 'autocomplete';
  channelId: string;
  guildId?: string;
  user: APIUser;
  commandName: string;
  dispatchedAt: number;
  expired: boolean;
  tokenExpired: boolean;
  /** The callback that acknowledged it (type 4, 5, 8, …) and its data. */
  acknowledgement?: { type: number; data: unknown };
  original?: APIMessage;
  followUps: APIMessage[];
}

export const defaultBotPermissions =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.SendMessagesInThreads |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.AttachFiles;

export class FakeDiscordState {
  readonly channels = new Map<string, KnownChannel>();
  readonly messages = new Map<string, Map<string, APIMessage>>();
  readonly sent: APIMessage[] = [];
  /** Key: `global` or a guild id. */
  readonly commands = new Map<string, APIApplicationCommand[]>();
  readonly interactions = new Map<string, InteractionRecord>();

  constructor(
    readonly bot: APIUser,
    readonly application: { id: string; name: string; flags: number; owner: APIUser },
    readonly guilds: FakeGuild[],
    readonly attachments: AttachmentStore,
    readonly clock: () => number,
  ) {
    for (const guild of guilds) for (const channel of [...guild.channels, ...guild.threads]) this.channels.set(channel.id, channel);
  }

  guildOf(channelId: string): FakeGuild | undefined {
    const channel = this.channels.get(channelId);
    return channel && 'guild_id' in channel ? this.guilds.find((guild) => guild.id === channel.guild_id) : undefined;
  }

  /** The DM channel between the bot and `user`, opened on first use. */
  dmChannel(user: APIUser): DmChannel {
    const isDm = (channel: KnownChannel): channel is DmChannel => channel.type === ChannelType.DM;
    const existing = [...this.channels.values()].filter(isDm).find((channel) => channel.recipients[0]?.id === user.id);
    if (existing) return existing;
    const channel: DmChannel = { id: snowflake(), type: ChannelType.DM, recipients: [user], last_message_id: null, flags: 0 };
    this.channels.set(channel.id, channel);
    return channel;
  }

  rememberMessage(message: APIMessage): void {
    const inChannel = this.messages.get(message.channel_id) ?? new Map<string, APIMessage>();
    inChannel.set(message.id, message);
    this.messages.set(message.channel_id, inChannel);
    const channel = this.channels.get(message.channel_id);
    if (channel) channel.last_message_id = message.id;
  }

  findMessage(channelId: string, messageId: string): APIMessage | undefined {
    return this.messages.get(channelId)?.get(messageId);
  }

  interactionByToken(token: string): InteractionRecord | undefined {
    return [...this.interactions.values()].find((interaction) => interaction.token === token);
  }
}
