import type { InboundMessage } from '../../src/shared/types.js';

// A link to a message in a Discord server: discord.com/channels/<guild>/<channel>/<message>. Direct messages are left
// out (catch-up is for groups).

type Linked = Pick<InboundMessage, 'spaceKey' | 'conversationKey' | 'messageId' | 'chatKind'>;

export function discordMessageLink(message: Linked): string | undefined {
  const guild = /^discord:(\d{1,25})$/.exec(message.spaceKey)?.[1];
  const ids = /^(\d{1,25}):(\d{1,25})$/.exec(message.messageId);
  if (message.chatKind !== 'group' || guild === undefined || !ids) return undefined;
  return `https://discord.com/channels/${guild}/${ids[1]}/${ids[2]}`;
}
