import type { Attachment, InboundMessage } from '../../src/shared/types.js';

/** A group message on Telegram from Somchai, not addressed to the bot, unless overridden. */
export function inboundMessage(overrides: Partial<InboundMessage> = {}): InboundMessage {
  return {
    platform: 'telegram',
    conversationKey: 'telegram:-100',
    spaceKey: 'telegram:-100',
    messageId: '1',
    chatKind: 'group',
    sender: { id: '42', name: 'Somchai', isPlatformAdmin: false },
    text: '',
    mentionsBot: false,
    repliesToBot: false,
    attachments: [],
    // Now: an older message is answered as late (src/pipeline/late-answer.ts).
    receivedAt: new Date(),
    ...overrides,
  };
}

export function photo(fileId: string): Attachment {
  return { kind: 'image', mime: 'image/jpeg', name: `${fileId}.jpg`, size: 1000, reference: { kind: 'platform-file', id: fileId } };
}

/** A clock the test moves by hand. */
export function manualClock(start = Date.UTC(2025, 0, 1)) {
  let current = start;
  return {
    now: () => new Date(current),
    advance(milliseconds: number) {
      current += milliseconds;
    },
  };
}
