import type { WebhookBodyRoomLimits } from './webhook-body-room.js';

// The bounds on what the network can make the HTTP server hold (docs/architecture.md, "Processes and operations").
// Platform deliveries are a few kilobytes sent in milliseconds; these are far above any real one and far below
// what would hurt a bot that shares a small box with its model.

export interface HttpLimits {
  /** All of a request's headers must arrive within this (Node's default is 60 s: room for slowloris). */
  headersTimeoutMs: number;
  /**
   * The whole request, body included (Node 20's default is 5 minutes): a backstop, above the admin page's upload
   * deadline (120 s for a document over a slow link); webhook bodies and forms have their own 10 s deadlines.
   */
  requestTimeoutMs: number;
  /** How often Node looks for requests past those two (its default, 30 s, would add up to 30 s to each). */
  timeoutCheckMs: number;
  /** A webhook body must have arrived this long after it was let in; a slower sender gets 408 and a closed socket. */
  bodyTimeoutMs: number;
  /** After an answer given before the body was read, how long the rest is read and discarded before the socket closes. */
  lingerMs: number;
  /** Sockets open at once; more are closed as they come (each costs a file descriptor and some memory). */
  maxConnections: number;
  webhookBodyRoom: WebhookBodyRoomLimits;
}

export const defaultHttpLimits: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 150_000,
  timeoutCheckMs: 1_000,
  bodyTimeoutMs: 10_000,
  lingerMs: 2_000,
  maxConnections: 4_096,
  // 32 bodies, 8 MiB together: 32 LINE bodies at their 256 KiB cap, or 8 Telegram bodies at their 1 MiB cap. A
  // waiting request costs what Node already read of its socket (up to ~100 KiB): 64 of them, not hundreds.
  webhookBodyRoom: { maxBodies: 32, maxBytes: 8 * 1024 * 1024, maxWaiting: 64, maxWaitMs: 5_000 },
};
