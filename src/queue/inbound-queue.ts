import type { AcceptResult } from '../shared/channel.js';
import { parseInboundMessage } from '../shared/inbound-message-schema.js';
import type { InboundMessage, Platform, Reply } from '../shared/types.js';

// The durable inbound queue (docs/architecture.md, "Data flow of one message"): a message is stored before the
// platform is told it arrived, processed per conversation in arrival order, and every reply is stored before any
// of its parts is sent, so a restart answers each stored message exactly once.

/** A stored message that is not finished yet. */
export interface QueuedMessage {
  /** Arrival order over the whole queue. */
  sequence: number;
  message: InboundMessage;
  /** Its final reply is stored: the turn is over and must not run again, only its delivery may be unfinished. */
  answered: boolean;
  /**
   * The live (streamed) message an earlier attempt left in the chat, as `rememberLiveMessage` stored it: the next
   * attempt continues in it and the final reply completes it (docs/architecture.md, "Send").
   */
  liveMessage?: string;
}

/** A platform message id is short (Telegram's a number, Discord's snowflakes): a longer handle is refused, not stored. */
export const maxLiveMessageChars = 128;

/** Whether a handle may be stored: not empty, within the bound. */
export function liveMessageFits(handle: string): boolean {
  return handle.length > 0 && handle.length <= maxLiveMessageChars;
}

/** A stored handle read back, or undefined for none (or a value no version of ours could have stored). */
export function readLiveMessage(value: unknown): string | undefined {
  return typeof value === 'string' && liveMessageFits(value) ? value : undefined;
}

/** A stored message body read back, or undefined when this version cannot read it. */
export function readStoredMessage(body: string): InboundMessage | undefined {
  try {
    return parseInboundMessage(JSON.parse(body));
  } catch {
    return undefined;
  }
}

export interface StoredReply {
  index: number;
  reply: Reply;
}

export type PartState = 'sending' | 'sent';

/** Unfinished messages (waiting, running or still being delivered) and how long the oldest has waited. */
export interface PendingCount {
  pending: number;
  /** 0 when nothing is pending. */
  oldestPendingAgeSeconds: number;
}

/** The queue's depth for /readyz, /status and /metrics: in all and per platform (only platforms with one pending). */
export interface QueueStats extends PendingCount {
  byPlatform: Partial<Record<Platform, PendingCount>>;
}

/** The right to work on one conversation's messages, held by one process at a time (shared backends). */
export interface ConversationClaim {
  /**
   * Gives the conversation up; resolves with whether unfinished messages are left (look again). `handedOver`: this
   * process could not finish them (no adapter for their platform, shutting down) — another process takes them.
   * `requeue`: this process is full; what is left goes to the back of the shared line (fair turns between
   * conversations), and false is returned.
   */
  release(options?: { handedOver?: boolean; requeue?: boolean }): Promise<boolean>;
}

/** How many more conversations this process can take on now, and a promise for when that becomes more than none. */
export interface WorkerRoom {
  free(): number;
  whenFree(): Promise<void>;
}

/**
 * The backend-neutral queue; `sqlite-inbound-queue.ts` is the one-machine backend, `redis-inbound-queue.ts` the one
 * several processes share. A shared backend has `claim` and `listen`; the one-machine backend needs neither (one
 * process, and the worker runs a conversation's messages one at a time).
 */
export interface InboundQueue {
  /** The right to work on a conversation; undefined while another process holds it. */
  claim?(conversationKey: string): Promise<ConversationClaim | undefined>;
  /**
   * Starts telling this process about conversations with new messages (accepted by any process, or left by one that
   * died), only as many at a time as `room` says it can take: the rest wait for a process with room.
   */
  listen?(wake: (conversationKey: string) => void, room?: WorkerRoom): Promise<void>;
  /** Stores the message durably (committed before this resolves); `duplicate` when its platform id is known. */
  accept(message: InboundMessage): Promise<AcceptResult>;
  /** Records a message its caller answers at once (the CLI's direct path): dedupe only. False when known. */
  remember(message: InboundMessage): Promise<boolean>;
  /** The oldest unfinished message of a conversation. */
  next(conversationKey: string): Promise<QueuedMessage | undefined>;
  /**
   * Up to `limit` unfinished messages of a conversation stored after `afterSequence`, in order, without taking them:
   * a stale backlog is answered by one reply that covers the messages behind it (src/pipeline/missed-messages.ts).
   * On a shared backend, call it only while holding the conversation; the messages it returns may then be written to.
   * A message this version cannot read is left out (`next` gives it up when its turn comes).
   */
  following(conversationKey: string, afterSequence: number, limit: number): Promise<QueuedMessage[]>;
  /** Every conversation with an unfinished message, the one with the oldest message first. */
  openConversations(): Promise<string[]>;
  /** Counts one more attempt at processing a message; resolves with the count (crash loops end in `failed`). */
  startAttempt(sequence: number): Promise<number>;
  /**
   * Counts a strike against messages whose attempt a crash this process caught is interrupting (the last-resort
   * handler): their next start then counts as a second interruption and sets them aside. The one-machine backend has
   * written it when this returns (synchronous SQLite); a shared backend sends it and resolves once it is stored.
   */
  strike(sequences: readonly number[]): void | Promise<void>;
  /** The replies stored for a message, by index. */
  replies(sequence: number): Promise<StoredReply[]>;
  /** Stores a reply before any part of it is sent; `final` (the message's answer) also marks the message answered. */
  storeReply(sequence: number, index: number, reply: Reply, final: boolean): Promise<void>;
  /** Parts of a reply and how far each got. */
  parts(sequence: number, index: number): Promise<Map<number, PartState>>;
  markPart(sequence: number, index: number, part: number, state: PartState): Promise<void>;
  /**
   * Stores the live message's platform id for the message (overwriting an earlier one), as durably as a part mark and,
   * on a shared backend, only while this process holds the conversation. A handle `liveMessageFits` refuses is
   * logged and not stored.
   */
  rememberLiveMessage(sequence: number, handle: string): Promise<void>;
  /** Done: every reply delivered. Failed: given up (it stays for dedupe either way). */
  finish(sequence: number, outcome: 'done' | 'failed'): Promise<void>;
  /** One cheap indexed query: also the check that the store is open. */
  stats(): Promise<QueueStats>;
  close(): void | Promise<void>;
}
