import type { InboundMessage } from '../../src/shared/types.js';
import { inboundMessage } from './inbound-message.js';

/** A direct Telegram message with a photo reference, as the durable queue stores it. */
export function queuedMessage(messageId: string, conversation = 'telegram:1', text = `ข้อความ ${messageId}`): InboundMessage {
  return inboundMessage({
    conversationKey: conversation,
    spaceKey: conversation,
    messageId,
    chatKind: 'direct',
    text,
    attachments: [{ kind: 'image', mime: 'image/jpeg', name: 'a.jpg', size: 10, reference: { kind: 'platform-file', id: 'f1' } }],
    receivedAt: new Date('2026-01-02T03:04:05.000Z'),
  });
}

export function deferred<Value = void>() {
  let resolve!: (value: Value) => void;
  const promise = new Promise<Value>((done) => (resolve = done));
  return { promise, resolve };
}
