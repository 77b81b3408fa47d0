import type { DeliveryJournal, LiveAnswerStart, Responder } from '../shared/channel.js';
import type { Reply } from '../shared/types.js';
import type { InboundQueue, PartState, QueuedMessage, StoredReply } from '../queue/inbound-queue.js';

/** Where the router records the replies of one message, and how far each got (docs/architecture.md, "Send"). */
export interface MessageReplies {
  /** Replies an earlier attempt stored, by index: they are delivered as stored, never produced again. */
  readonly earlier: readonly StoredReply[];
  /** The earlier attempt stored the message's answer: the turn is over and must not run again. */
  readonly answered: boolean;
  /** Stores a reply before any part of it is sent. */
  store(index: number, reply: Reply, final: boolean): Promise<void>;
  journal(index: number): Promise<DeliveryJournal>;
  /** The message's live answer: the message an earlier attempt streamed into, and where this attempt's is kept. */
  live?: LiveAnswerStart;
}

/**
 * The journal of a stored message: the queue remembers every part across a restart. `attempt` is what
 * `startAttempt` returned: on the first one nothing can have been stored yet (every write comes after it), so
 * nothing is read back — two fewer round trips per message on a shared queue.
 */
export async function queuedReplies(queue: InboundQueue, entry: QueuedMessage, attempt: number): Promise<MessageReplies> {
  const { sequence } = entry;
  const firstAttempt = attempt === 1;
  return {
    earlier: firstAttempt ? [] : await queue.replies(sequence),
    answered: entry.answered,
    store: (index, reply, final) => queue.storeReply(sequence, index, reply, final),
    journal: async (index) => {
      const parts = firstAttempt ? new Map<number, PartState>() : await queue.parts(sequence, index);
      return {
        isSent: (part) => parts.get(part) === 'sent',
        sending: async (part) => {
          await queue.markPart(sequence, index, part, 'sending');
          parts.set(part, 'sending');
        },
        sent: async (part) => {
          await queue.markPart(sequence, index, part, 'sent');
          parts.set(part, 'sent');
        },
      };
    },
  };
}

/** For a message answered in the same call (the CLI, tests): nothing to resume, so nothing is stored. */
export function directReplies(): MessageReplies {
  return { earlier: [], answered: false, store: async () => undefined, journal: async () => memoryJournal() };
}

export function memoryJournal(): DeliveryJournal {
  const sent = new Set<number>();
  return {
    isSent: (part) => sent.has(part),
    sending: async () => undefined,
    sent: async (part) => void sent.add(part),
  };
}

/**
 * Sends the replies of one message in order, each stored before any of its parts goes out. A message's replies are
 * notices (an unreadable image…) and then one final reply (the answer, a command's result, a refusal); storing the
 * final one also marks the message answered. On a replay, the notices an earlier attempt stored stand for the first
 * notices of this attempt, so the user never gets one twice, and nothing stored is produced again.
 */
export class ReplySink {
  /** Exactly what was handed to the responder, earlier replies included. */
  readonly sent: Reply[] = [];
  private notices = 0;

  constructor(
    private readonly replies: MessageReplies,
    private readonly responder: Responder,
  ) {}

  /** Delivers the parts of earlier replies that did not go out before the restart. */
  async deliverEarlier(): Promise<void> {
    for (const { index, reply } of this.replies.earlier) await this.deliver(index, reply);
  }

  async notice(reply: Reply): Promise<void> {
    const index = this.notices++;
    if (this.replies.earlier.some((stored) => stored.index === index)) return;
    await this.replies.store(index, reply, false);
    await this.deliver(index, reply);
  }

  async final(reply: Reply): Promise<void> {
    const index = Math.max(this.notices, ...this.replies.earlier.map((stored) => stored.index + 1));
    await this.replies.store(index, reply, true);
    await this.deliver(index, reply);
  }

  private async deliver(index: number, reply: Reply): Promise<void> {
    this.sent.push(reply);
    await this.responder.send(reply, await this.replies.journal(index));
  }
}
