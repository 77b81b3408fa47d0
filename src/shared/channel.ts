import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Attachment, InboundMessage, Platform, ProgressEvent, Reply } from './types.js';

// The contract between a platform adapter (adapters/<platform>/) and the core: everything an adapter needs, and
// nothing else. Adding a platform: docs/architecture.md, "Adding a platform".

/** How the core talks back for one message: replies in order, and progress notes for long work. */
export interface Responder {
  send(reply: Reply): Promise<void>;
  progress?(event: ProgressEvent): Promise<void>;
}

/** What an adapter hands every normalized message to (the core's router). */
export interface InboundHandler {
  /** Resolves once the message is answered, run or deliberately ignored. */
  handle(message: InboundMessage, responder: Responder): Promise<unknown>;
}

/** Who the bot is on this platform, learnt when the adapter connects. */
export interface AdapterIdentity {
  /** The bot's username, so `/cmd@username` is ours and `/cmd@another_bot` is not; absent where there is none. */
  username?: string;
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
}

/** A webhook endpoint the HTTP server mounts for an adapter (LINE, Telegram in webhook mode). */
export interface WebhookRoute {
  method: 'GET' | 'POST';
  /** Exact path, e.g. `/webhooks/line`. */
  path: string;
  /** Answers the request; the adapter checks the platform's signature itself. */
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
}

export interface PlatformAdapter {
  readonly platform: Platform;
  readonly capabilities: PlatformCapabilities;
  /**
   * Connects and delivers every message to `handler`. Resolves with the bot's identity before the first delivery,
   * so the first `/cmd@bot` is already recognized.
   */
  start(handler: InboundHandler): Promise<AdapterIdentity>;
  /** Takes no new messages; resolves once the ones already handed to the handler are done. */
  stop(): Promise<void>;
  readonly routes?: readonly WebhookRoute[];
  /** The bytes behind one of this adapter's attachment references; more than `maxBytes` is an error, not a truncation. */
  download(attachment: Attachment, maxBytes: number): Promise<Uint8Array>;
}
