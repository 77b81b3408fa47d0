import type { APIMessage } from 'discord.js';
import { discordErrors } from './api-error.js';
import { assertEditable, createMessage, editMessage } from './outgoing-message.js';
import { noContent, ok, type Route, type RouteContext } from './router.js';
import type { KnownChannel } from './state.js';

// Channel routes: GET a channel, create / edit / get / delete a message, and the typing indicator (204).

function knownChannel(context: RouteContext): KnownChannel {
  const channel = context.state.channels.get(context.params.channel ?? '');
  if (!channel) throw discordErrors.unknownChannel();
  return channel;
}

function knownMessage(context: RouteContext): APIMessage {
  knownChannel(context);
  const message = context.state.findMessage(context.params.channel ?? '', context.params.message ?? '');
  if (!message) throw discordErrors.unknownMessage();
  return message;
}

export const channelRoutes: Route[] = [
  { method: 'GET', template: '/channels/:channel', auth: true, handle: (context) => ok(knownChannel(context)) },
  {
    method: 'POST',
    template: '/channels/:channel/messages',
    auth: true,
    handle: (context) => {
      const channel = knownChannel(context);
      const message = createMessage(context.state, channel.id, context.body, context.files, { author: context.state.bot });
      context.state.rememberMessage(message);
      context.state.sent.push(message);
      return ok(message);
    },
  },
  {
    method: 'GET',
    template: '/channels/:channel/messages/:message',
    auth: true,
    // Attachment links come back signed afresh (they expire; this is how a client gets working ones again).
    handle: (context) => {
      const message = knownMessage(context);
      return ok({ ...message, attachments: message.attachments.map((attachment) => context.state.attachments.refreshed(attachment)) });
    },
  },
  {
    method: 'PATCH',
    template: '/channels/:channel/messages/:message',
    auth: true,
    handle: (context) => ok(editMessage(context.state, assertEditable(context.state, knownMessage(context)), context.body, context.files)),
  },
  {
    method: 'DELETE',
    template: '/channels/:channel/messages/:message',
    auth: true,
    handle: (context) => {
      const message = knownMessage(context);
      context.state.messages.get(message.channel_id)?.delete(message.id);
      const index = context.state.sent.indexOf(message);
      if (index !== -1) context.state.sent.splice(index, 1);
      return noContent;
    },
  },
  {
    method: 'POST',
    template: '/channels/:channel/typing',
    auth: true,
    handle: (context) => {
      knownChannel(context);
      return noContent;
    },
  },
];
