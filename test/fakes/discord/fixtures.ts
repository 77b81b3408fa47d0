import { ChannelType, PermissionFlagsBits, type APIGuildMember, type APIRole, type APIUser, type GuildMemberFlags, type RoleFlags } from 'discord.js';
import { snowflake } from './ids.js';

// The guilds a fake bot is in, described briefly by a test (GuildSpec) and resolved once into the objects Discord
// sends: channels, active threads, roles (@everyone and the bot's managed integration role with `tags.bot_id`),
// and members (the bot always one of them, holding its managed role).

export function discordUser(username: string, options: { id?: string; globalName?: string | null; bot?: boolean } = {}): APIUser {
  const user: APIUser = { id: options.id ?? snowflake(), username, discriminator: '0', global_name: options.globalName ?? username, avatar: null };
  if (options.bot) user.bot = true;
  return user;
}

export type TextChannelType =
  ChannelType.GuildText | ChannelType.GuildAnnouncement | ChannelType.GuildVoice | ChannelType.GuildCategory | ChannelType.GuildForum;

export interface ChannelSpec {
  id?: string;
  name: string;
  type?: TextChannelType;
  parentId?: string;
}

export interface ThreadSpec {
  id?: string;
  name: string;
  /** The parent channel's name or id (default: the first text channel). */
  parent?: string;
  private?: boolean;
  ownerId?: string;
}

export interface RoleSpec {
  id?: string;
  name: string;
  permissions?: bigint;
}

export interface MemberSpec {
  user: APIUser;
  /** Role names or ids from the guild's `roles`. */
  roles?: string[];
  nick?: string;
}

export interface GuildSpec {
  id?: string;
  name?: string;
  ownerId?: string;
  /** Default: one text channel `general`. */
  channels?: ChannelSpec[];
  threads?: ThreadSpec[];
  roles?: RoleSpec[];
  members?: MemberSpec[];
  everyonePermissions?: bigint;
  /** The permissions of the bot's managed role (what the invite link granted). */
  botPermissions?: bigint;
}

/** A guild channel or thread as the API returns it (GET /channels/{id}); GUILD_CREATE omits `guild_id`. */
export type WireChannel = Record<string, unknown> & { id: string; type: ChannelType; name: string; guild_id: string };

export interface FakeGuild {
  id: string;
  name: string;
  ownerId: string;
  everyoneRole: APIRole;
  botRole: APIRole;
  roles: APIRole[];
  channels: WireChannel[];
  threads: WireChannel[];
  members: APIGuildMember[];
  joinedAt: string;
}

const defaultEveryone =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.SendMessagesInThreads |
  PermissionFlagsBits.CreatePublicThreads |
  PermissionFlagsBits.ReadMessageHistory |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.AttachFiles |
  PermissionFlagsBits.AddReactions |
  PermissionFlagsBits.UseApplicationCommands |
  PermissionFlagsBits.ChangeNickname;

function role(id: string, name: string, position: number, permissions: bigint, extra: Partial<APIRole> = {}): APIRole {
  return {
    id,
    name,
    color: 0,
    colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
    hoist: false,
    icon: null,
    unicode_emoji: null,
    position,
    permissions: permissions.toString(),
    managed: false,
    mentionable: false,
    flags: 0 as RoleFlags,
    ...extra,
  };
}

function member(user: APIUser, roles: string[], joinedAt: string, nick?: string): APIGuildMember {
  return {
    user,
    roles,
    nick: nick ?? null,
    avatar: null,
    joined_at: joinedAt,
    deaf: false,
    mute: false,
    flags: 0 as GuildMemberFlags,
    premium_since: null,
    pending: false,
  };
}

export function resolveGuild(spec: GuildSpec, bot: APIUser, botPermissions: bigint): FakeGuild {
  const id = spec.id ?? snowflake();
  const joinedAt = new Date().toISOString();
  const everyoneRole = role(id, '@everyone', 0, spec.everyonePermissions ?? defaultEveryone);
  const botRole = role(snowflake(), bot.username, 1, spec.botPermissions ?? botPermissions, { managed: true, tags: { bot_id: bot.id } });
  const extraRoles = (spec.roles ?? []).map((roleSpec, index) => role(roleSpec.id ?? snowflake(), roleSpec.name, index + 2, roleSpec.permissions ?? 0n));
  const roles = [everyoneRole, botRole, ...extraRoles];
  const roleId = (nameOrId: string): string => roles.find((known) => known.id === nameOrId || known.name === nameOrId)?.id ?? nameOrId;
  const channels: WireChannel[] = (spec.channels ?? [{ name: 'general' }]).map((channel, position) => ({
    id: channel.id ?? snowflake(),
    type: channel.type ?? ChannelType.GuildText,
    guild_id: id,
    name: channel.name,
    position,
    permission_overwrites: [],
    parent_id: channel.parentId ?? null,
    topic: null,
    nsfw: false,
    last_message_id: null,
    rate_limit_per_user: 0,
    flags: 0,
  }));
  const firstText = channels.find((channel) => channel.type === ChannelType.GuildText);
  const threads: WireChannel[] = (spec.threads ?? []).map((thread) => {
    const parent = channels.find((channel) => channel.id === thread.parent || channel.name === thread.parent) ?? firstText;
    return {
      id: thread.id ?? snowflake(),
      type: thread.private ? ChannelType.PrivateThread : ChannelType.PublicThread,
      guild_id: id,
      name: thread.name,
      parent_id: parent?.id ?? null,
      owner_id: thread.ownerId ?? bot.id,
      last_message_id: null,
      message_count: 0,
      member_count: 1,
      total_message_sent: 0,
      rate_limit_per_user: 0,
      flags: 0,
      thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: joinedAt, locked: false },
    };
  });
  const members = [
    member(bot, [botRole.id], joinedAt),
    ...(spec.members ?? []).map((each) => member(each.user, (each.roles ?? []).map(roleId), joinedAt, each.nick)),
  ];
  const ownerId = spec.ownerId ?? spec.members?.[0]?.user.id ?? snowflake();
  return { id, name: spec.name ?? 'Saeng test guild', ownerId, everyoneRole, botRole, roles, channels, threads, members, joinedAt };
}

/** A member's permissions in the guild, as `member.permissions` of an interaction carries them. */
export function memberPermissions(guild: FakeGuild, userId: string): bigint {
  const all = Object.values(PermissionFlagsBits).reduce((sum, bit) => sum | bit, 0n);
  if (userId === guild.ownerId) return all;
  const roleIds = new Set(guild.members.find((each) => each.user.id === userId)?.roles ?? []);
  const total = guild.roles.filter((each) => each.id === guild.id || roleIds.has(each.id)).reduce((sum, each) => sum | BigInt(each.permissions), 0n);
  return (total & PermissionFlagsBits.Administrator) === 0n ? total : all;
}

/** The guild object of GET /guilds/:guild (and the start of GUILD_CREATE): its owner and roles, no members or channels. */
export function guildPayload(guild: FakeGuild): Record<string, unknown> {
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    splash: null,
    discovery_splash: null,
    owner_id: guild.ownerId,
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 1,
    default_message_notifications: 1,
    explicit_content_filter: 2,
    roles: guild.roles,
    emojis: [],
    stickers: [],
    features: [],
    mfa_level: 0,
    application_id: null,
    system_channel_id: guild.channels[0]?.id ?? null,
    system_channel_flags: 0,
    rules_channel_id: null,
    vanity_url_code: null,
    description: null,
    banner: null,
    premium_tier: 0,
    premium_subscription_count: 0,
    preferred_locale: 'th',
    public_updates_channel_id: null,
    nsfw_level: 0,
    premium_progress_bar_enabled: false,
  };
}

/** The GUILD_CREATE payload: channels and threads without `guild_id`, as the gateway sends them. */
export function guildCreatePayload(guild: FakeGuild): Record<string, unknown> {
  const withoutGuildId = ({ guild_id: _guildId, ...rest }: WireChannel): Record<string, unknown> => rest;
  return {
    ...guildPayload(guild),
    joined_at: guild.joinedAt,
    large: false,
    unavailable: false,
    member_count: guild.members.length,
    members: guild.members,
    channels: guild.channels.map(withoutGuildId),
    threads: guild.threads,
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    soundboard_sounds: [],
  };
}
