import { randomUUID } from 'node:crypto';
import type { AcceptResult } from '../shared/channel.js';
import { describeError } from '../shared/describe-error.js';
import { parseInboundMessage } from '../shared/inbound-message-schema.js';
import type { Logger } from '../shared/log.js';
import type { InboundMessage, Language, Platform, Reply } from '../shared/types.js';
import type { LuaScript } from '../redis/lua-script.js';
import type { RedisClient } from '../redis/redis-client.js';
import {
  liveMessageFits,
  readLiveMessage,
  readStoredMessage,
  type ConversationClaim,
  type InboundQueue,
  type PartState,
  type PendingCount,
  type QueuedMessage,
  type QueueStats,
  type StoredReply,
  type WorkerRoom,
} from './inbound-queue.js';
import * as scripts from './redis-queue-scripts.js';
import { parseStoredReply } from './stored-reply.js';
import { RedisWakeFeed } from './redis-wake-feed.js';
import { describeLeaseLoss, findLeaseLoss, LeaseLostError } from './redis-lease-loss.js';

// The inbound queue shared by several bot processes (REDIS_URL). How the pieces make "answered exactly once"
// (docs/architecture.md, "More than one process"):
// - accept: one script stores the message, its dedupe id, its place in the conversation's order and a wake entry,
//   before the platform hears "received" — a redelivered message finds its id and is a duplicate;
// - one process per conversation: a lease (SET NX PX, renewed while held) is taken before a conversation's messages
//   are looked at and given back when none is left, so order is kept across processes;
// - at-least-once hand-out: wake entries (a stream consumer group) stay pending until a drain that held the lease
//   ends; a dead process's entries are claimed by another after a lease (redis-wake-feed.ts);
// - fenced progress: attempts, replies, parts, the live message's id and the finish are written only while the lease is still ours, and
//   the reply journal skips parts already sent — so a message taken over after a crash resends at most the part that
//   was in flight.
// Durability is Redis's: run it with `appendonly yes` (README) or an accepted message can be lost with the server.

const platforms: readonly Platform[] = ['console', 'discord', 'telegram', 'line'];
const leaseLost = 'SAENG_LEASE_LOST';

export interface RedisInboundQueueOptions {
  client: RedisClient;
  /** How long a finished message id is remembered for dedupe (DEDUPE_TTL_SECONDS). */
  dedupeTtlMs: number;
  /** How long a conversation stays taken by a process that stopped renewing (REDIS_LEASE_SECONDS). */
  leaseMs: number;
  log: Logger;
  /** The language of the log lines that say why a lease was lost (BOT_LANGUAGE; default Thai). */
  language?: Language;
  /** Key prefix (tests give each queue its own). */
  prefix?: string;
  now?: () => number;
  /** Bound on the wake stream (entries are only hints; trimmed ones are re-found at the next start). */
  streamLength?: number;
}

/** Wake entries kept (MAXLEN ~): they are hints, a trimmed one is found again at the next start. */
const defaultStreamLength = 100_000;

/** A write refused because the conversation's lease is no longer ours (taken over, expired, or Redis lost it). */
export { LeaseLostError } from './redis-lease-loss.js';

export class RedisInboundQueue implements InboundQueue {
  /** This process's lease owner id and stream consumer name. */
  readonly owner = randomUUID();
  private readonly prefix: string;
  private readonly now: () => number;
  private readonly feed: RedisWakeFeed;
  /** Conversations whose lease this process holds. */
  private readonly held = new Set<string>();
  /** The conversation of each message this process looked at (the fence needs it). */
  private readonly conversations = new Map<number, string>();
  private renewTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: RedisInboundQueueOptions) {
    this.prefix = options.prefix ?? 'saeng:q:';
    this.now = options.now ?? Date.now;
    this.feed = new RedisWakeFeed({
      client: options.client,
      stream: `${this.prefix}wake`,
      consumer: this.owner,
      claimIdleMs: options.leaseMs,
      log: options.log,
    });
  }

  async accept(message: InboundMessage): Promise<AcceptResult> {
    return (await this.insert(message, 'pending')) ? 'stored' : 'duplicate';
  }

  async remember(message: InboundMessage): Promise<boolean> {
    return this.insert(message, 'done');
  }

  async claim(conversationKey: string): Promise<ConversationClaim | undefined> {
    const taken = await scripts.claimScript.run(this.options.client, [this.prefix, conversationKey, this.owner, this.options.leaseMs]);
    if (taken !== 1) return undefined;
    this.held.add(conversationKey);
    this.startRenewing();
    return {
      release: async ({ handedOver = false, requeue = false } = {}) => {
        // Taken before the release: an entry delivered after it is for the next drain.
        const delivered = this.feed.takeDelivered(conversationKey);
        this.held.delete(conversationKey);
        const left = await scripts.releaseScript.run(this.options.client, [
          this.prefix,
          conversationKey,
          this.owner,
          requeue ? 'requeue' : '',
          this.options.streamLength ?? defaultStreamLength,
        ]);
        if (!handedOver) void this.feed.acknowledge(delivered);
        return typeof left === 'number' && left > 0;
      },
    };
  }

  listen(wake: (conversationKey: string) => void, room?: WorkerRoom): Promise<void> {
    return this.feed.start(wake, room);
  }

  async next(conversationKey: string): Promise<QueuedMessage | undefined> {
    for (;;) {
      const row = await scripts.nextScript.run(this.options.client, [this.prefix, conversationKey]);
      if (!Array.isArray(row) || typeof row[0] !== 'string') return undefined;
      const sequence = Number(row[0]);
      this.conversations.set(sequence, conversationKey);
      try {
        const queued: QueuedMessage = { sequence, message: parseInboundMessage(JSON.parse(String(row[1]))), answered: row[2] === 'answered' };
        const liveMessage = readLiveMessage(row[3]);
        if (liveMessage !== undefined) queued.liveMessage = liveMessage;
        return queued;
      } catch (error) {
        // A message this version cannot read would block its conversation for good.
        this.options.log.error({ conversation: conversationKey, sequence, error: describeError(error) }, 'stored message unreadable: given up');
        await this.finish(sequence, 'failed');
      }
    }
  }

  async following(conversationKey: string, afterSequence: number, limit: number): Promise<QueuedMessage[]> {
    const flat = await scripts.followingScript.run(this.options.client, [this.prefix, conversationKey, afterSequence, limit]);
    const rows = Array.isArray(flat) ? flat : [];
    const found: QueuedMessage[] = [];
    for (let at = 0; at + 2 < rows.length; at += 3) {
      const sequence = Number(rows[at]);
      const message = readStoredMessage(String(rows[at + 1]));
      if (!Number.isFinite(sequence) || !message) continue;
      // Its replies are written under this conversation's lease (fenced), like those of `next`.
      this.conversations.set(sequence, conversationKey);
      found.push({ sequence, message, answered: rows[at + 2] === 'answered' });
    }
    return found;
  }

  async openConversations(): Promise<string[]> {
    const open = await this.options.client.sendCommand(['ZRANGE', `${this.prefix}open`, '0', '9999']);
    return Array.isArray(open) ? open.filter((item): item is string => typeof item === 'string') : [];
  }

  async startAttempt(sequence: number): Promise<number> {
    const attempts = await this.fenced(scripts.startAttemptScript, sequence, []);
    return typeof attempts === 'number' ? attempts : 0;
  }

  /** The same fenced increment as startAttempt: a strike is an attempt that cannot end well. */
  async strike(sequences: readonly number[]): Promise<void> {
    await Promise.all(sequences.map((sequence) => this.fenced(scripts.startAttemptScript, sequence, [])));
  }

  async replies(sequence: number): Promise<StoredReply[]> {
    const stored = await this.options.client.hGetAll(`${this.prefix}r:${sequence}`);
    return Object.entries(stored)
      .map(([index, body]) => ({ index: Number(index), reply: parseStoredReply(body) }))
      .sort((a, b) => a.index - b.index);
  }

  async storeReply(sequence: number, index: number, reply: Reply, final: boolean): Promise<void> {
    await this.fenced(scripts.storeReplyScript, sequence, [index, JSON.stringify(reply), final ? 1 : 0]);
  }

  async parts(sequence: number, index: number): Promise<Map<number, PartState>> {
    const stored = await this.options.client.hGetAll(`${this.prefix}p:${sequence}:${index}`);
    return new Map(Object.entries(stored).map(([part, state]) => [Number(part), state === 'sent' ? 'sent' : 'sending']));
  }

  async markPart(sequence: number, index: number, part: number, state: PartState): Promise<void> {
    await this.fenced(scripts.markPartScript, sequence, [index, part, state]);
  }

  async rememberLiveMessage(sequence: number, handle: string): Promise<void> {
    if (!liveMessageFits(handle)) {
      this.options.log.warn({ sequence, chars: handle.length }, 'live message id refused (empty or too long): not stored');
      return;
    }
    await this.fenced(scripts.rememberLiveScript, sequence, [handle]);
  }

  async finish(sequence: number, _outcome: 'done' | 'failed'): Promise<void> {
    await this.fenced(scripts.finishScript, sequence, [this.options.dedupeTtlMs]);
    this.conversations.delete(sequence);
  }

  async stats(): Promise<QueueStats> {
    const now = this.now();
    const flat = await scripts.statsScript.run(this.options.client, [this.prefix, ...platforms]);
    const age = (acceptedAt: number) => Math.max(0, (now - acceptedAt) / 1000);
    const byPlatform: Partial<Record<Platform, PendingCount>> = {};
    let pending = 0;
    let oldest = now;
    const rows = Array.isArray(flat) ? flat : [];
    for (let at = 0; at + 2 < rows.length; at += 3) {
      const platform = platforms.find((name) => name === rows[at]);
      const count = Number(rows[at + 1]);
      const acceptedAt = Number(rows[at + 2]);
      if (!platform || !Number.isFinite(count) || !Number.isFinite(acceptedAt)) continue;
      byPlatform[platform] = { pending: count, oldestPendingAgeSeconds: age(acceptedAt) };
      pending += count;
      oldest = Math.min(oldest, acceptedAt);
    }
    return { pending, oldestPendingAgeSeconds: age(oldest), byPlatform };
  }

  /** Stops reading and renewing, and gives back every lease at once so another process need not wait for it. */
  async close(): Promise<void> {
    clearInterval(this.renewTimer);
    await this.feed.stop();
    const held = [...this.held];
    this.held.clear();
    await Promise.allSettled(held.map((conversation) => scripts.releaseScript.run(this.options.client, [this.prefix, conversation, this.owner])));
  }

  private async insert(message: InboundMessage, mode: 'pending' | 'done'): Promise<boolean> {
    const sequence = await scripts.acceptScript.run(this.options.client, [
      this.prefix,
      message.platform,
      message.messageId,
      message.conversationKey,
      JSON.stringify(message),
      mode,
      this.now(),
      this.options.dedupeTtlMs,
      this.options.streamLength ?? defaultStreamLength,
    ]);
    return typeof sequence === 'number' && sequence > 0;
  }

  private async fenced(script: LuaScript, sequence: number, args: readonly (string | number)[]): Promise<unknown> {
    const conversation = this.conversations.get(sequence);
    if (conversation === undefined) throw new Error(`message ${sequence} was not taken by this process`);
    try {
      return await script.run(this.options.client, [this.prefix, conversation, this.owner, sequence, ...args]);
    } catch (error) {
      if (describeError(error).includes(leaseLost)) {
        this.held.delete(conversation);
        const loss = await findLeaseLoss(this.options.client, this.prefix, conversation, sequence).catch(() => 'expired' as const);
        throw new LeaseLostError(conversation, loss, this.options.language ?? 'th', sequence);
      }
      throw error;
    }
  }

  /** Every third of a lease, the held leases are extended in one call; one found lost is dropped (its writes fail). */
  private startRenewing(): void {
    if (this.renewTimer) return;
    this.renewTimer = setInterval(() => void this.renew(), Math.max(50, Math.floor(this.options.leaseMs / 3)));
    this.renewTimer.unref();
  }

  private async renew(): Promise<void> {
    const held = [...this.held];
    if (held.length === 0) return;
    try {
      const result = await scripts.renewScript.run(this.options.client, [this.prefix, this.options.leaseMs, this.owner, ...held]);
      if (!Array.isArray(result)) return;
      const lost = held.filter((conversation, at) => result[at] === 0 && this.held.delete(conversation));
      for (const conversation of lost) {
        const loss = await findLeaseLoss(this.options.client, this.prefix, conversation).catch(() => 'expired' as const);
        this.options.log.warn({ conversation, loss }, `inbound queue: ${describeLeaseLoss(loss, this.options.language ?? 'th', conversation)}`);
      }
    } catch (error) {
      this.options.log.warn({ error: describeError(error) }, 'inbound queue: lease renewal failed (retrying)');
    }
  }
}
