import type { APIApplicationCommand } from 'discord.js';
import { isRecord } from '../../../src/shared/is-record.js';
import { discordErrors, invalidFormBody } from './api-error.js';
import { snowflake } from './ids.js';
import { ok, type Route, type RouteContext } from './router.js';

// The bot's own routes: GET /gateway/bot (what @discordjs/ws calls before connecting), GET /users/@me, POST
// /users/@me/channels (a DM channel),
// GET /applications/@me, and application commands (bulk overwrite with PUT, read with GET), globally or per guild.

const commandName = /^[-_\p{L}\p{N}]{1,32}$/u;

function ownApplication(context: RouteContext): void {
  if (context.params.application !== context.state.application.id) throw discordErrors.missingAccess();
  const guildId = context.params.guild;
  if (guildId !== undefined && !context.state.guilds.some((guild) => guild.id === guildId)) throw discordErrors.missingAccess();
}

function overwriteCommands(context: RouteContext): APIApplicationCommand[] {
  ownApplication(context);
  if (!Array.isArray(context.body)) throw invalidFormBody([], 'BASE_TYPE_ARRAY', 'Must be an array.');
  if (context.body.length > 100) throw discordErrors.tooLong('_', 100);
  const scope = context.params.guild ?? 'global';
  const previous = context.state.commands.get(scope) ?? [];
  const commands = context.body.map((command: unknown, index): APIApplicationCommand => {
    if (!isRecord(command)) throw invalidFormBody([String(index)], 'DICT_TYPE_CONVERT', 'Only dictionaries may be used in a DictType');
    const name = typeof command.name === 'string' ? command.name : '';
    const type = typeof command.type === 'number' ? command.type : 1;
    if (!commandName.test(name) || (type === 1 && name !== name.toLowerCase())) {
      throw invalidFormBody([String(index), 'name'], 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
    }
    const description = typeof command.description === 'string' ? command.description : '';
    if (type === 1 && (description.length < 1 || description.length > 100)) {
      throw invalidFormBody([String(index), 'description'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
    }
    const kept = previous.find((existing) => existing.name === name && existing.type === type);
    return {
      ...command,
      id: kept?.id ?? snowflake(),
      application_id: context.state.application.id,
      version: snowflake(),
      type,
      name,
      description,
      default_member_permissions: typeof command.default_member_permissions === 'string' ? command.default_member_permissions : null,
      nsfw: command.nsfw === true,
      ...(context.params.guild ? { guild_id: context.params.guild } : {}),
    } as APIApplicationCommand;
  });
  context.state.commands.set(scope, commands);
  return commands;
}

const readCommands = (context: RouteContext): APIApplicationCommand[] => {
  ownApplication(context);
  return context.state.commands.get(context.params.guild ?? 'global') ?? [];
};

export const applicationRoutes: Route[] = [
  {
    method: 'GET',
    template: '/gateway/bot',
    auth: true,
    handle: (context) => ok({ url: context.gatewayUrl, shards: 1, session_start_limit: { total: 1000, remaining: 999, reset_after: 0, max_concurrency: 1 } }),
  },
  { method: 'GET', template: '/users/@me', auth: true, handle: (context) => ok({ ...context.state.bot, verified: true, mfa_enabled: false, flags: 0 }) },
  {
    // Opens (or returns) the bot's DM channel with a user the bot shares a guild with; another id is an unknown user.
    method: 'POST',
    template: '/users/@me/channels',
    auth: true,
    handle: ({ state, body }) => {
      const recipient = isRecord(body) ? String(body.recipient_id ?? '') : '';
      const member = state.guilds.flatMap((guild) => guild.members).find((candidate) => candidate.user.id === recipient);
      if (!member) throw discordErrors.unknownUser();
      return ok(state.dmChannel(member.user));
    },
  },
  {
    method: 'GET',
    template: '/applications/@me',
    auth: true,
    handle: ({ state }) =>
      ok({
        id: state.application.id,
        name: state.application.name,
        icon: null,
        description: '',
        bot_public: false,
        bot_require_code_grant: false,
        verify_key: 'f'.repeat(64),
        flags: state.application.flags,
        owner: state.application.owner,
        team: null,
        bot: state.bot,
        approximate_guild_count: state.guilds.length,
        install_params: { scopes: ['bot', 'applications.commands'], permissions: '0' },
      }),
  },
  { method: 'PUT', template: '/applications/:application/commands', auth: true, handle: (context) => ok(overwriteCommands(context)) },
  { method: 'GET', template: '/applications/:application/commands', auth: true, handle: (context) => ok(readCommands(context)) },
  { method: 'PUT', template: '/applications/:application/guilds/:guild/commands', auth: true, handle: (context) => ok(overwriteCommands(context)) },
  { method: 'GET', template: '/applications/:application/guilds/:guild/commands', auth: true, handle: (context) => ok(readCommands(context)) },
];
