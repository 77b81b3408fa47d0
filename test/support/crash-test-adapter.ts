import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import type { AcceptResult, InboundHandler, PlatformAdapter, Responder } from '../../src/shared/channel.js';
import type { InboundMessage } from '../../src/shared/types.js';

// A platform adapter for the crash test's child process: messages come in from the test (over IPC), every part
// the bot sends is appended to a file and fsync'd before anything else happens, so the test can count parts after
// a kill -9. A reply longer than `splitChars` goes out as two parts, as a real platform splits a long answer.

/** Where the adapter stops dead (for the test to kill it there): after the first part is marked sent, or in flight. */
export type HoldPoint = 'after-first-part' | 'in-flight' | 'none';

export interface DeliveredPart {
  messageId: string;
  part: number;
  text: string;
}

export type AdapterEvent =
  { type: 'part-sent'; messageId: string; part: number } | { type: 'holding'; messageId: string; part: number; point: Exclude<HoldPoint, 'none'> };

export interface CrashTestAdapterOptions {
  outboxPath: string;
  splitChars: number;
  hold: HoldPoint;
  emit(event: AdapterEvent): void;
}

export interface CrashTestAdapter extends PlatformAdapter {
  /** The platform's delivery: resolves once the core has the message (the acknowledgement). */
  deliver(message: InboundMessage): Promise<AcceptResult>;
}

export function createCrashTestAdapter(options: CrashTestAdapterOptions): CrashTestAdapter {
  let handler: InboundHandler | undefined;
  let stopped = false;
  const accepting = new Set<Promise<AcceptResult>>();

  const append = (part: DeliveredPart) => {
    const descriptor = openSync(options.outboxPath, 'a');
    try {
      writeSync(descriptor, `${JSON.stringify(part)}\n`);
      fsyncSync(descriptor);
    } finally {
      closeSync(descriptor);
    }
  };
  const holdForever = (messageId: string, part: number, point: Exclude<HoldPoint, 'none'>) => {
    options.emit({ type: 'holding', messageId, part, point });
    return new Promise<never>(() => undefined);
  };

  const responderFor = (message: InboundMessage): Responder => ({
    send: async (reply, journal) => {
      const characters = Array.from(reply.text);
      const half = Math.ceil(characters.length / 2);
      const parts = characters.length > options.splitChars ? [characters.slice(0, half).join(''), characters.slice(half).join('')] : [reply.text];
      for (const [part, text] of parts.entries()) {
        if (journal.isSent(part)) continue;
        await journal.sending(part);
        append({ messageId: message.messageId, part, text });
        if (options.hold === 'in-flight') await holdForever(message.messageId, part, 'in-flight');
        await journal.sent(part);
        options.emit({ type: 'part-sent', messageId: message.messageId, part });
        if (options.hold === 'after-first-part' && part === 0 && parts.length > 1) await holdForever(message.messageId, part, 'after-first-part');
      }
    },
  });

  return {
    platform: 'telegram',
    capabilities: { maxTextChars: options.splitChars, maxMessagesPerReply: 2, markup: 'plain', typingIndicator: false, canEdit: false, sendsFiles: false },
    start: async (given) => {
      handler = given;
      return { username: 'saeng_test_bot' };
    },
    stop: async () => {
      stopped = true;
      await Promise.allSettled([...accepting]);
    },
    deliver: async (message) => {
      if (!handler || stopped) throw new Error('not taking messages');
      const accepted = handler.accept(message);
      accepting.add(accepted);
      try {
        return await accepted;
      } finally {
        accepting.delete(accepted);
      }
    },
    responderFor,
    download: async () => {
      throw new Error('the crash test sends no attachments');
    },
  };
}
