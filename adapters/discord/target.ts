import { commandSpec } from '../../src/shared/command-table.js';
import type { InboundMessage } from '../../src/shared/types.js';

// Where the answer to a stored message goes, read back from the message alone (after a restart the gateway event
// is gone): the channel and the message to reply to, or the interaction whose token answers a slash command
// (both as inbound.ts and interactions.ts write them).

export type DiscordTarget =
  | { kind: 'message'; channelId: string; messageId: string; inGuild: boolean }
  | { kind: 'interaction'; channelId: string; interactionId: string; token: string; expiresAt: Date; ephemeral: boolean };

const messageId = /^(\d{1,20}):(\d{1,20})$/;
const interactionId = /^(\d{1,20}):interaction:(\d{1,20})$/;

/**
 * Commands the table marks `answersPrivately` are answered to the caller only: knowledge-base codes and document
 * lists, a user's own id, are not for the channel.
 */
export function answersPrivately(text: string): boolean {
  const name = /^\/([a-z]{1,32})(?:\s|$)/i.exec(text)?.[1];
  return name !== undefined && commandSpec(name.toLowerCase())?.answersPrivately === true;
}

export function interactionMessageId(channelId: string, id: string): string {
  return `${channelId}:interaction:${id}`;
}

export function discordTargetOf(message: Pick<InboundMessage, 'messageId' | 'chatKind' | 'replyToken' | 'text'>): DiscordTarget {
  const interaction = interactionId.exec(message.messageId);
  if (interaction?.[1] && interaction[2] && message.replyToken) {
    return {
      kind: 'interaction',
      channelId: interaction[1],
      interactionId: interaction[2],
      token: message.replyToken.value,
      expiresAt: message.replyToken.expiresAt,
      ephemeral: answersPrivately(message.text),
    };
  }
  const plain = messageId.exec(message.messageId);
  if (!plain?.[1] || !plain[2]) throw new Error(`not a Discord message id: ${message.messageId}`);
  return { kind: 'message', channelId: plain[1], messageId: plain[2], inGuild: message.chatKind === 'group' };
}
