import type { DeliveryJournal, LiveAnswerStart, Responder } from '../shared/channel.js';
import type { InboundMessage, Reply } from '../shared/types.js';
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
  /** The live (streamed) message of this message's answer: handed to `Responder.live`, named by the final reply. */
  readonly live: LiveMessage;
  /** Up to `limit` unfinished messages of the conversation stored after this one (none on the direct path). */
  later(limit: number): Promise<LaterMessage[]>;
}

/** A message waiting behind the one being answered, which that answer may cover (src/pipeline/missed-messages.ts). */
export interface LaterMessage {
  message: InboundMessage;
  /** Already covered (or answered) by an earlier attempt of this message. */
  answered: boolean;
  /** Stores `coveredReply` as its answer: when its turn comes it is completed and sends nothing. */
  cover(): Promise<void>;
}

/**
 * The stored answer of a message another reply answered for it: empty, so delivering it sends nothing. No other
 * reply is empty (a platform refuses an empty message), so it cannot be mistaken for one.
 */
export const coveredReply: Reply = { text: '', files: [] };

function isCovered(reply: Reply): boolean {
  return reply.text === '' && reply.files.length === 0;
}

/** A `LiveAnswerStart` that also tells which live message the final reply must complete. */
export interface LiveMessage extends LiveAnswerStart {
  /** The handle remembered in this attempt, else the one an earlier attempt left (`earlier`), else none. */
  current(): string | undefined;
}

/** `store` keeps a remembered handle durably (the queue); the direct path keeps it in memory only. */
function liveMessage(earlier: string | undefined, store: (handle: string) => Promise<void>): LiveMessage {
  let remembered: string | undefined;
  return {
    earlier,
    remember: async (handle) => {
      // Kept before the write: the message is in the chat whether or not storing it succeeds.
      remembered = handle;
      await store(handle);
    },
    // An empty handle names no message.
    current: () => remembered || earlier,
  };
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
    live: liveMessage(entry.liveMessage, (handle) => queue.rememberLiveMessage(sequence, handle)),
    store: (index, reply, final) => queue.storeReply(sequence, index, reply, final),
    later: async (limit) =>
      (await queue.following(entry.message.conversationKey, sequence, limit)).map((later) => ({
        message: later.message,
        answered: later.answered,
        cover: () => queue.storeReply(later.sequence, 0, coveredReply, true),
      })),
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
  return {
    earlier: [],
    answered: false,
    live: liveMessage(undefined, async () => undefined),
    store: async () => undefined,
    later: async () => [],
    journal: async () => memoryJournal(),
  };
}

/** The same journal, naming the live message its part 0 goes into. */
function namingLiveMessage(journal: DeliveryJournal, liveMessage: string): DeliveryJournal {
  return {
    isSent: (part) => journal.isSent(part),
    sending: (part) => journal.sending(part),
    sent: (part) => journal.sent(part),
    liveMessage,
  };
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
 * notices of this attempt, so the user never gets one twice, and nothing stored is produced again. The final reply
 * (also one an earlier attempt stored) is delivered with a journal naming the live message, so the adapter completes
 * that message instead of sending a second answer; notices never name it.
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
    // Answered: the final reply was stored last, so it has the highest index.
    const finalIndex = this.replies.answered ? Math.max(...this.replies.earlier.map((stored) => stored.index)) : undefined;
    for (const { index, reply } of this.replies.earlier) await this.deliver(index, reply, index === finalIndex);
  }

  async notice(reply: Reply): Promise<void> {
    const index = this.notices++;
    if (this.replies.earlier.some((stored) => stored.index === index)) return;
    await this.replies.store(index, reply, false);
    await this.deliver(index, reply, false);
  }

  async final(reply: Reply): Promise<void> {
    const index = Math.max(this.notices, ...this.replies.earlier.map((stored) => stored.index + 1));
    await this.replies.store(index, reply, true);
    await this.deliver(index, reply, true);
  }

  private async deliver(index: number, reply: Reply, final: boolean): Promise<void> {
    // Answered by another message's reply: stored so it is not answered again, nothing of its own to send.
    if (isCovered(reply)) return;
    this.sent.push(reply);
    const journal = await this.replies.journal(index);
    const liveMessage = final ? this.replies.live.current() : undefined;
    await this.responder.send(reply, liveMessage === undefined ? journal : namingLiveMessage(journal, liveMessage));
  }
}
