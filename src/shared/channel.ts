import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Localized } from './i18n.js';
import type { Attachment, InboundMessage, Language, Platform, ProgressEvent, Reply, TurnStep } from './types.js';

// The contract between a platform adapter (adapters/<platform>/) and the core: everything an adapter needs, and
// nothing else. Adding a platform: docs/architecture.md, "Adding a platform".

/**
 * Which parts of one reply already went out. The adapter splits a reply into platform messages (parts) itself, skips
 * every part `isSent`, and marks each one `sending` before and `sent` after its send; after a crash the core hands
 * the same journal back, so only the part that was in flight at the crash can go out twice.
 */
export interface DeliveryJournal {
  isSent(part: number): boolean;
  sending(part: number): Promise<void>;
  sent(part: number): Promise<void>;
  /**
   * The live message this reply's turn left in the chat (its platform id, as `LiveAnswerStart.remember` stored it,
   * in this attempt or one before a crash): part 0 goes into it by an edit instead of as a new message, so a streamed
   * answer is completed, never duplicated. Only a message's final reply carries it.
   */
  readonly liveMessage?: string;
  /**
   * Names this delivery, the same in every attempt (after a crash, in another process) and different for any other:
   * what a platform's idempotency key for it derives from (LINE's X-Line-Retry-Key). Absent: the message's id and the
   * reply's index name it — a reminder sent again from the same request (a recurring one, each day) gives its own.
   */
  readonly deliveryKey?: string;
}

/** How the core talks back for one message: replies in order, and progress notes for long work (not journaled). */
export interface Responder {
  send(reply: Reply, journal: DeliveryJournal): Promise<void>;
  progress?(event: ProgressEvent): Promise<void>;
  /**
   * The agent is working on this message (a typing indicator, a status line): called when its turn starts; the
   * function it returns is called when the turn ends, before the answer is sent. `turn.cancel()` stops the turn
   * (a platform with a cancel gesture, e.g. the console's Ctrl-C); platforms without one ignore it.
   */
  working?(turn: RunningTurn): () => void;
  /**
   * The running turn started a step: a model call, or a tool (its name). Only between `working()` and the call of
   * the function it returned; for a status line, so platforms without one leave it out.
   */
  step?(step: TurnStep): void;
  /**
   * Shows the answer while the turn writes it (docs/architecture.md, "Streaming answers"), where the platform can:
   * a draft or one message edited in place. Called once per turn, before it starts, only on platforms where
   * streaming is on; the final reply still comes through `send`, whose journal names the live message.
   */
  live?(start: LiveAnswerStart): LiveAnswer;
}

/** What a responder's live answer is handed when the turn starts. */
export interface LiveAnswerStart {
  /** The live message an earlier attempt of this message left in the chat (a crash mid-stream): continue in it. */
  readonly earlier?: string;
  /**
   * Stores the live message's platform id durably; call it as soon as the platform returned the id, before the
   * next update, so a restart completes that message instead of starting a second one.
   */
  remember(handle: string): Promise<void>;
}

/**
 * An answer shown as it is written. The core hands it guard-safe text only: each `show` is the whole answer visible
 * so far, Markdown like a reply's text, already through the DLP, a prefix of what the final reply will say. Best
 * effort and paced by the adapter to its platform's limits: a newer text replaces an older one not yet shown, a
 * failed update is logged, never thrown.
 */
export interface LiveAnswer {
  show(text: string): void;
  /** A step started (a tool): "กำลังค้นเว็บ…" in the same place (`stepStatusText`), until text is shown again. */
  status(step: TurnStep): void;
  /** The turn is over: resolves once the update on its way is settled; nothing is shown after it. */
  end(): Promise<void>;
}

/** A turn in progress, as its responder is handed it. */
export interface RunningTurn {
  /**
   * Stops the turn at once: the model request in flight is aborted, the message is answered with a short
   * localized "cancelled" reply (so it is not run again after a restart), and the history is left unchanged.
   */
  cancel(): void;
}

/** `stored`: kept durably, it will be answered; `duplicate`: this platform message id was accepted before. */
export type AcceptResult = 'stored' | 'duplicate';

/** What an adapter hands every normalized message to (the core's durable inbound queue). */
export interface InboundHandler {
  /**
   * Resolves once the message is durably stored, never waiting for its turn: acknowledge it to the platform only
   * after this resolves (polling: before the offset moves past it; webhook: before the 200). It is answered later,
   * through `PlatformAdapter.responderFor`, possibly by the next process after a restart.
   */
  accept(message: InboundMessage): Promise<AcceptResult>;
  /**
   * A space got a new id on its platform (a Telegram group upgraded to a supergroup): its knowledge bases, the
   * bindings and history of its conversations move to the new key. Safe to call again for the same move.
   */
  moveSpace(move: SpaceMove): Promise<void>;
  /** The names of a space's knowledge bases, oldest first (for a platform's autocomplete of command options). */
  knowledgeBaseNames(spaceKey: string): Promise<string[]>;
  /**
   * A small persistent record an adapter keeps for itself (LINE: the ids of the bot's own messages, so a quote of
   * one is known as a reply to the bot; the messages it saw, so a quote can be looked up), shared by every bot
   * process and forgotten after `ttlSeconds`. `value`: a short text kept with it (the adapter bounds it).
   */
  rememberRecord(key: string, ttlSeconds: number, value?: string): Promise<void>;
  hasRecord(key: string): Promise<boolean>;
  /** The text a record was kept with; undefined when there is none (or it was forgotten). */
  readRecord(key: string): Promise<string | undefined>;
}

/**
 * Space keys before and after. Conversations move with their space: the one whose key equals the space key, and
 * those keyed `<space key>:<…>` (threads, topics).
 */
export interface SpaceMove {
  from: string;
  to: string;
}

/** Who the bot is on this platform, learnt when the adapter connects. */
export interface AdapterIdentity {
  /** The bot's username, so `/cmd@username` is ours and `/cmd@another_bot` is not; absent where there is none. */
  username?: string;
  /**
   * False when, in groups, the platform hands the bot only the messages addressed to it (Telegram's privacy mode;
   * Discord without the MessageContent intent): group context and image-then-mention cannot work there.
   */
  readsAllGroupMessages?: boolean;
}

/** What a reply has to fit: the core shapes answers to it. */
export interface PlatformCapabilities {
  /** Longest text one platform message carries, in characters. */
  maxTextChars: number;
  /** Most messages one reply may take (LINE: five per reply token). */
  maxMessagesPerReply: number;
  /** What the platform renders: Markdown as is, its HTML subset, or plain text only. */
  markup: 'markdown' | 'html' | 'plain';
  typingIndicator: boolean;
  /** A sent message can be edited later (streamed or corrected answers). */
  canEdit: boolean;
  /** The bot can send files: an answer longer than a reply takes goes on as a text file, else it is cut. */
  sendsFiles: boolean;
}

/** A webhook endpoint the HTTP server mounts for an adapter (LINE, Telegram in webhook mode). */
export interface WebhookRoute {
  method: 'GET' | 'POST';
  /** Exact path, e.g. `/webhooks/line`. */
  path: string;
  /**
   * The largest body the route reads. The HTTP server refuses a larger Content-Length (413) before the route runs,
   * and reads at most a bounded number of bodies at once (src/webhook-body-room.ts); without it, a request with a body is
   * refused. The route still counts the bytes it reads (a chunked body declares no length).
   */
  maxBodyBytes?: number;
  /** Answers the request; the adapter checks the platform's signature itself. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
}

export interface PlatformAdapter {
  readonly platform: Platform;
  readonly capabilities: PlatformCapabilities;
  /**
   * Connects and delivers every message to `handler`. Resolves with the bot's identity; the core answers none of
   * this platform's stored messages before that, so the first `/cmd@bot` is already recognized. A rejection is
   * retried later (src/platform-starter.ts) unless it is a `PlatformConfigError`, so start() must be safe to call
   * again after a failed attempt.
   */
  start(handler: InboundHandler): Promise<AdapterIdentity>;
  /**
   * Takes the handler before `start()` (which may fail and be called again later): a webhook then stores the
   * deliveries that arrive while the platform's start is still under way or being retried. Optional: an adapter
   * whose updates only flow once it has started (polling, a gateway) leaves it out.
   */
  attach?(handler: InboundHandler): void;
  /**
   * Takes no new messages; resolves once the ones already handed to `accept` are stored and acknowledged. Responders
   * keep working after it: running turns still deliver their answers during the shutdown grace period.
   */
  stop(): Promise<void>;
  /**
   * Answers a stored message from the message alone (Telegram: its chat, replying to its id; LINE: its reply token,
   * else a push), so a message accepted before a restart is answered after it.
   */
  responderFor(message: InboundMessage): Responder;
  readonly routes?: readonly WebhookRoute[];
  /**
   * Sends a plain text to one person's private chat with the bot (the `/web` link asked for in a group); rejects when
   * the platform refuses (the person never opened a chat with the bot). Optional: a platform whose fake or API gives
   * no private chat to a known user id leaves it out, and `/web` then asks to be typed in a private chat.
   */
  sendPrivately?(userId: string, text: string): Promise<void>;
  /**
   * Whether the user is an admin of the space now, asked of the platform (Telegram: getChatMember, cached briefly);
   * the admin page checks it again before each change a group admin makes. Optional: undefined where it cannot say.
   */
  isSpaceAdmin?(spaceKey: string, userId: string): Promise<boolean | undefined>;
  /**
   * Lines the platform adds to /status (LINE: the push quota); `forAdmin` when the asker is a global admin. Optional:
   * platforms with nothing to say leave it out.
   */
  statusLines?(language: Language, forAdmin: boolean): Promise<string[]>;
  /**
   * The month's quota of messages sent unprompted, where the platform has one (LINE's push messages: a reminder costs
   * one); undefined when it cannot be read. Optional: platforms without such a quota leave it out.
   */
  pushQuota?(): Promise<PushQuota | undefined>;
  /**
   * A link that opens one of this platform's messages, where it has them (a Telegram supergroup's `t.me/c/…`, a
   * Discord message URL): catch-up summaries point at the first message of each topic. Optional.
   */
  messageLink?(message: Pick<InboundMessage, 'spaceKey' | 'conversationKey' | 'messageId' | 'chatKind'>): string | undefined;
  /** Once started: 'standby' while another process takes this platform's updates; 'running' otherwise. */
  runningState?(): 'running' | 'standby';
  /** The bytes behind one of this adapter's attachment references; more than `maxBytes` is an error, not a truncation. */
  download(attachment: Attachment, maxBytes: number): Promise<Uint8Array>;
}

/** A platform's monthly quota of messages the bot sends unprompted (LINE's push messages). */
export interface PushQuota {
  used: number;
  /** Undefined: no limit. */
  limit?: number;
  /** The platform refused a push for the quota this month. */
  exhausted: boolean;
}

/**
 * Where an adapter is in its life (src/platforms.ts keeps one per platform): for /readyz and admins' /status.
 * `standby`: started and sending, while another process takes the updates (one Telegram poller among several).
 * `retrying`: its start failed (the network, the platform down) and is tried again later; `failed`: its configuration
 * was refused, it is not tried again.
 */
export type PlatformState = 'starting' | 'running' | 'standby' | 'retrying' | 'failed' | 'stopped';

/** Why a platform is down, for /readyz and admins' /status: a short reason with no secret, and the next attempt. */
export interface PlatformProblem {
  reason: Localized;
  /** When its start is tried again; absent when it is not (a refused configuration). */
  nextAttemptAt?: Date;
}

/** What an adapter tells the core about its sending, for the per-platform counters on /metrics. */
export type DeliveryEvent = 'sent' | 'retried' | 'rate-limited';

/**
 * Called once per platform API message actually sent ('sent'; not typing, edits, file downloads or polling), once
 * per retry of a platform API call ('retried'), and once per rate-limit answer (HTTP 429; not a monthly quota's)
 * the platform gave ('rate-limited', followed by 'retried' when the adapter tries again). Counting only: it must
 * return at once and never throw.
 */
export type DeliveryObserver = (event: DeliveryEvent) => void;
