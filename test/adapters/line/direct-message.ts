import type { InboundMessage } from '../../../src/shared/types.js';
import { userSource, type FakeLine } from '../../fakes/line/index.js';

/** A 1:1 text message to the bot as the LINE adapter stores it, with its fresh reply token from the fake. */
export function lineDirectMessage(line: FakeLine, userId: string, text: string, at = Date.now(), replyWindowMs = 50_000) {
  const event = line.textEvent({ source: userSource(userId), text });
  const message: InboundMessage = {
    platform: 'line',
    conversationKey: `line:${userId}`,
    spaceKey: `line:${userId}`,
    messageId: event.webhookEventId,
    chatKind: 'direct',
    sender: { id: userId, name: 'somchai', isPlatformAdmin: false },
    text,
    mentionsBot: false,
    repliesToBot: false,
    attachments: [],
    receivedAt: new Date(at),
    replyToken: { value: event.replyToken, expiresAt: new Date(at + replyWindowMs) },
  };
  return { event, message };
}
