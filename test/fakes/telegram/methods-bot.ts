import type { BotCommand, BotCommandScope } from 'telegraf/types';
import { isRecord } from '../../../src/shared/is-record.js';
import { BotApiError, badRequest } from './api-error.js';
import type { MethodHandler } from './method-context.js';
import { optionalBoolean, optionalInteger, optionalJson, optionalString, type Params } from './params.js';

// getMe, the webhook methods, getUpdates and the command menus.

/** Where a command menu is kept: its scope and language_code. */
export function commandsKey(params: Params): string {
  const scope = optionalJson(params, 'scope');
  const given: BotCommandScope = isRecord(scope) && typeof scope.type === 'string' ? (scope as unknown as BotCommandScope) : { type: 'default' };
  const chat = 'chat_id' in given ? String(given.chat_id) : '';
  const user = 'user_id' in given ? String(given.user_id) : '';
  return `${given.type}:${chat}:${user}|${optionalString(params, 'language_code') ?? ''}`;
}

const commandPattern = /^[a-z0-9_]{1,32}$/;

function readCommands(params: Params): BotCommand[] {
  const commands = optionalJson(params, 'commands');
  if (!Array.isArray(commands)) throw badRequest('commands must be an array');
  if (commands.length > 100) throw badRequest('too many commands');
  return commands.map((command: unknown) => {
    if (!isRecord(command) || typeof command.command !== 'string' || !commandPattern.test(command.command)) throw badRequest('BOT_COMMAND_INVALID');
    const description = command.description;
    if (typeof description !== 'string' || description.length < 1 || description.length > 256) throw badRequest('command description is empty');
    return { command: command.command, description };
  });
}

export const botMethods: Record<string, MethodHandler> = {
  getMe: (_params, { state }) => state.bot,

  getUpdates: (params, { state, updates, signal }) => {
    if (state.webhook.url !== '') {
      throw new BotApiError({
        error_code: 409,
        description: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
      });
    }
    return updates.getUpdates(params, signal);
  },

  setWebhook: (params, { state, updates }) => {
    const url = optionalString(params, 'url') ?? '';
    if (url !== '' && !url.startsWith('https://')) throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
    const allowed = optionalJson(params, 'allowed_updates');
    const dropPending = optionalBoolean(params, 'drop_pending_updates');
    state.webhook = {
      url,
      secret_token: optionalString(params, 'secret_token'),
      allowed_updates: Array.isArray(allowed) ? allowed.filter((type): type is string => typeof type === 'string') : undefined,
      max_connections: optionalInteger(params, 'max_connections'),
      ip_address: optionalString(params, 'ip_address'),
      drop_pending_updates: dropPending,
    };
    if (dropPending) updates.dropPending();
    return true;
  },

  deleteWebhook: (params, { state, updates }) => {
    state.webhook = { url: '' };
    if (optionalBoolean(params, 'drop_pending_updates')) updates.dropPending();
    return true;
  },

  getWebhookInfo: (_params, { state, updates }) => {
    const { url, allowed_updates, max_connections, ip_address } = state.webhook;
    const info: Record<string, unknown> = { url, has_custom_certificate: false, pending_update_count: updates.pendingCount() };
    if (url !== '') Object.assign(info, { max_connections: max_connections ?? 40, ip_address, allowed_updates });
    return JSON.parse(JSON.stringify(info)) as unknown;
  },

  setMyCommands: (params, { state }) => {
    state.commands.set(commandsKey(params), readCommands(params));
    return true;
  },

  getMyCommands: (params, { state }) => state.commands.get(commandsKey(params)) ?? [],

  deleteMyCommands: (params, { state }) => {
    state.commands.delete(commandsKey(params));
    return true;
  },
};
