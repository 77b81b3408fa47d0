import {
  ApplicationCommandOptionType,
  InteractionContextType,
  InteractionType,
  type APIApplicationCommandInteractionDataOption,
  type APIAttachment,
  type APIUser,
} from 'discord.js';
import { memberPermissions } from './fixtures.js';
import { interactionToken, snowflake } from './ids.js';
import type { FakeDiscordState } from './state.js';

// INTERACTION_CREATE for a chat-input command (type 2) or its autocomplete (type 4): `member` with its computed
// `permissions` string in a guild (`user` in a DM), `app_permissions`, the full `channel`, and
// `data: { id, name, type: 1, options, resolved: { attachments } }`. The interaction is remembered with its dispatch
// time, so the callback deadline and the single acknowledgement are enforced.

type Option = APIApplicationCommandInteractionDataOption;

/** Option builders: the shapes Discord sends (subcommands nest their options). */
export const commandOption = {
  string: (name: string, value: string, focused = false): Option => ({
    name,
    type: ApplicationCommandOptionType.String,
    value,
    ...(focused ? { focused } : {}),
  }),
  integer: (name: string, value: number, focused = false): Option => ({
    name,
    type: ApplicationCommandOptionType.Integer,
    value,
    ...(focused ? { focused } : {}),
  }),
  boolean: (name: string, value: boolean): Option => ({ name, type: ApplicationCommandOptionType.Boolean, value }),
  attachment: (name: string, attachment: APIAttachment): Option => ({ name, type: ApplicationCommandOptionType.Attachment, value: attachment.id }),
  subcommand: (name: string, options: Option[] = []): Option => ({ name, type: ApplicationCommandOptionType.Subcommand, options }) as Option,
  subcommandGroup: (name: string, options: Option[]): Option => ({ name, type: ApplicationCommandOptionType.SubcommandGroup, options }) as Option,
};

export interface IncomingInteractionSpec {
  commandName: string;
  channelId: string;
  user: APIUser;
  options?: Option[];
  /** Files of attachment options (`commandOption.attachment`), for `data.resolved.attachments`. */
  attachments?: APIAttachment[];
  /** An autocomplete request: one option carries `focused: true`. */
  autocomplete?: boolean;
  /** Default: the user's permissions from the guild's roles (everything for the owner). */
  memberPermissions?: bigint;
  /** Default: @everyone plus the bot's managed role. */
  appPermissions?: bigint;
  locale?: string;
  id?: string;
}

export function interactionCreatePayload(state: FakeDiscordState, spec: IncomingInteractionSpec): Record<string, unknown> {
  const channel = state.channels.get(spec.channelId);
  if (!channel) throw new Error(`dispatchInteraction: the fake knows no channel ${spec.channelId}`);
  const guild = state.guildOf(spec.channelId);
  const id = spec.id ?? snowflake();
  const token = interactionToken(id);
  const registered = [...(guild ? (state.commands.get(guild.id) ?? []) : []), ...(state.commands.get('global') ?? [])];
  const command = registered.find((each) => each.name === spec.commandName);
  const data: Record<string, unknown> = { id: command?.id ?? snowflake(), name: spec.commandName, type: 1 };
  if (spec.options) data.options = spec.options;
  if (spec.attachments?.length) data.resolved = { attachments: Object.fromEntries(spec.attachments.map((attachment) => [attachment.id, attachment])) };
  if (guild) data.guild_id = guild.id;
  const payload: Record<string, unknown> = {
    id,
    application_id: state.application.id,
    type: spec.autocomplete ? InteractionType.ApplicationCommandAutocomplete : InteractionType.ApplicationCommand,
    token,
    version: 1,
    data,
    channel,
    channel_id: channel.id,
    locale: spec.locale ?? 'th',
    entitlements: [],
    authorizing_integration_owners: guild ? { 0: guild.id } : { 1: spec.user.id },
    context: guild ? InteractionContextType.Guild : InteractionContextType.BotDM,
    attachment_size_limit: 10 * 1024 * 1024,
  };
  if (guild) {
    const { user: _user, ...member } = guild.members.find((each) => each.user.id === spec.user.id) ?? { user: spec.user, roles: [], joined_at: guild.joinedAt };
    const everyone = BigInt(guild.everyoneRole.permissions);
    Object.assign(payload, {
      guild_id: guild.id,
      guild: { id: guild.id, locale: 'th', features: [] },
      guild_locale: 'th',
      member: {
        nick: null,
        avatar: null,
        deaf: false,
        mute: false,
        flags: 0,
        premium_since: null,
        pending: false,
        ...member,
        user: spec.user,
        permissions: (spec.memberPermissions ?? memberPermissions(guild, spec.user.id)).toString(),
      },
      app_permissions: (spec.appPermissions ?? everyone | BigInt(guild.botRole.permissions)).toString(),
    });
  } else {
    Object.assign(payload, { user: spec.user, app_permissions: (spec.appPermissions ?? 0n).toString() });
  }
  state.interactions.set(id, {
    id,
    token,
    kind: spec.autocomplete ? 'autocomplete' : 'command',
    channelId: channel.id,
    ...(guild ? { guildId: guild.id } : {}),
    user: spec.user,
    commandName: spec.commandName,
    dispatchedAt: state.clock(),
    expired: false,
    tokenExpired: false,
    followUps: [],
  });
  return payload;
}
