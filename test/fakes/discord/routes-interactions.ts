import { InteractionResponseType, MessageFlags, type APIMessage } from 'discord.js';
import { isRecord } from '../../../src/shared/is-record.js';
import { discordErrors, invalidFormBody } from './api-error.js';
import { createMessage, editMessage, type MessageAuthoring } from './outgoing-message.js';
import { noContent, ok, type Route, type RouteContext, type RouteResult } from './router.js';
import type { InteractionRecord } from './state.js';

// Interaction responses, as Discord enforces them: the callback must come within the deadline (3 s; later, or for an
// interaction the test expired, 404 10062 "Unknown interaction") and only once (400 40060); then the token works
// for 15 minutes on the webhook routes (@original edits and follow-ups; later 401 50027). No route here needs the
// bot token. `?with_response=true` answers the callback with `{ interaction, resource }`, otherwise 204.

function authoring(context: RouteContext, interaction: InteractionRecord): MessageAuthoring {
  const { state } = context;
  return {
    author: state.bot,
    webhookId: state.application.id,
    applicationId: state.application.id,
    interactionMetadata: {
      id: interaction.id,
      type: 2,
      user: interaction.user,
      authorizing_integration_owners: interaction.guildId ? { 0: interaction.guildId } : { 1: interaction.user.id },
      name: interaction.commandName,
      command_type: 1,
    } as APIMessage['interaction_metadata'],
  };
}

function keep(context: RouteContext, message: APIMessage): void {
  if (((message.flags ?? 0) & MessageFlags.Ephemeral) === 0) context.state.rememberMessage(message);
  context.state.sent.push(message);
}

function callback(context: RouteContext): RouteResult {
  const { state, params } = context;
  const interaction = state.interactions.get(params.interaction ?? '');
  const late = interaction !== undefined && state.clock() - interaction.dispatchedAt > context.interactionDeadlineMs;
  if (!interaction || interaction.token !== params.token || interaction.expired || late) throw discordErrors.unknownInteraction();
  if (interaction.acknowledgement) throw discordErrors.alreadyAcknowledged();
  const body = isRecord(context.body) ? context.body : {};
  const type = typeof body.type === 'number' ? body.type : -1;
  const data = isRecord(body.data) ? body.data : {};
  const flags = typeof data.flags === 'number' ? data.flags : 0;
  let message: APIMessage | undefined;
  switch (type) {
    case InteractionResponseType.ChannelMessageWithSource:
      message = createMessage(state, interaction.channelId, data, context.files, authoring(context, interaction));
      break;
    case InteractionResponseType.DeferredChannelMessageWithSource:
      message = createMessage(state, interaction.channelId, { flags: (flags & MessageFlags.Ephemeral) | MessageFlags.Loading }, [], {
        ...authoring(context, interaction),
        allowEmpty: true,
      });
      break;
    case InteractionResponseType.ApplicationCommandAutocompleteResult:
      if (interaction.kind !== 'autocomplete') throw invalidFormBody(['type'], 'INTERACTION_RESPONSE_TYPE_INVALID', 'Interaction response type is invalid');
      if (Array.isArray(data.choices) && data.choices.length > 25) throw discordErrors.tooLong('choices', 25);
      break;
    case InteractionResponseType.DeferredMessageUpdate:
    case InteractionResponseType.UpdateMessage:
    case InteractionResponseType.Modal:
      break;
    default:
      throw invalidFormBody(['type'], 'BASE_TYPE_CHOICES', 'Value must be one of {1, 4, 5, 6, 7, 8, 9, 10, 12}.');
  }
  interaction.acknowledgement = { type, data };
  if (message) {
    interaction.original = message;
    keep(context, message);
  }
  if (context.query.get('with_response') !== 'true') return noContent;
  const resource = message ? { type, message } : { type };
  const loading = type === InteractionResponseType.DeferredChannelMessageWithSource;
  return ok({
    interaction: {
      id: interaction.id,
      type: interaction.kind === 'autocomplete' ? 4 : 2,
      ...(message
        ? { response_message_id: message.id, response_message_loading: loading, response_message_ephemeral: (flags & MessageFlags.Ephemeral) !== 0 }
        : {}),
    },
    resource,
  });
}

function webhookInteraction(context: RouteContext): InteractionRecord {
  const { state, params } = context;
  const interaction = state.interactionByToken(params.token ?? '');
  if (!interaction || params.webhook !== state.application.id) throw discordErrors.unknownWebhook();
  if (interaction.tokenExpired || state.clock() - interaction.dispatchedAt > context.interactionTokenLifetimeMs) throw discordErrors.invalidWebhookToken();
  return interaction;
}

function webhookMessage(context: RouteContext): APIMessage {
  const interaction = webhookInteraction(context);
  const id = context.params.message;
  const message = id === '@original' ? interaction.original : interaction.followUps.find((each) => each.id === id);
  // Deleted by anyone (the token, the bot, a moderator in the channel): 10008 from then on, as on Discord.
  const ephemeral = ((message?.flags ?? 0) & MessageFlags.Ephemeral) !== 0;
  if (!message || (!ephemeral && !context.state.findMessage(message.channel_id, message.id))) throw discordErrors.unknownMessage();
  return message;
}

export const interactionRoutes: Route[] = [
  { method: 'POST', template: '/interactions/:interaction/:token/callback', auth: false, handle: callback },
  {
    method: 'POST',
    template: '/webhooks/:webhook/:token',
    auth: false,
    handle: (context) => {
      const interaction = webhookInteraction(context);
      if (!interaction.acknowledgement) throw discordErrors.unknownWebhook();
      const message = createMessage(context.state, interaction.channelId, context.body, context.files, authoring(context, interaction));
      interaction.followUps.push(message);
      keep(context, message);
      return context.query.get('wait') === 'true' ? ok(message) : noContent;
    },
  },
  { method: 'GET', template: '/webhooks/:webhook/:token/messages/:message', auth: false, handle: (context) => ok(webhookMessage(context)) },
  {
    method: 'PATCH',
    template: '/webhooks/:webhook/:token/messages/:message',
    auth: false,
    handle: (context) => {
      const message = webhookMessage(context);
      const edited = editMessage(context.state, message, context.body, context.files);
      // The first edit of a deferred response replaces the "thinking…" state.
      edited.flags = (edited.flags ?? 0) & ~MessageFlags.Loading;
      return ok(edited);
    },
  },
  {
    method: 'DELETE',
    template: '/webhooks/:webhook/:token/messages/:message',
    auth: false,
    handle: (context) => {
      const message = webhookMessage(context);
      const interaction = webhookInteraction(context);
      if (interaction.original === message) interaction.original = undefined;
      interaction.followUps = interaction.followUps.filter((each) => each !== message);
      context.state.messages.get(message.channel_id)?.delete(message.id);
      const index = context.state.sent.indexOf(message);
      if (index !== -1) context.state.sent.splice(index, 1);
      return noContent;
    },
  },
];
