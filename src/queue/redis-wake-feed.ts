import { describeError } from '../shared/describe-error.js';
import type { Logger } from '../shared/log.js';
import type { RedisClient } from '../redis/redis-client.js';
import type { WorkerRoom } from './inbound-queue.js';

// Which process works on a newly accepted message: Redis Streams with one consumer group (`workers`). Each
// accepted message adds a "wake" entry naming its conversation; XREADGROUP hands each entry to one process. An
// entry is acknowledged only after a drain of its conversation that held the conversation's lease has ended, so an
// entry whose process died (or lost the race for the lease) stays pending and XAUTOCLAIM hands it to a live process
// once it has been idle for a lease — that is the failover after `kill -9`. The stored messages themselves live in
// the queue's keys; an entry only says "look at this conversation". A process reads (and claims) only as many entries
// as it has room for (WorkerRoom): a busy process leaves new conversations in the stream for an idle one, instead of
// taking them all and making them wait for its own turn slots.

/** At most this many entries per read. */
const readCount = 100;
/** Without a room: every read takes as many as it may. */
const unlimited: WorkerRoom = { free: () => readCount, whenFree: () => Promise.resolve() };

const group = 'workers';

export interface WakeFeedOptions {
  client: RedisClient;
  /** The stream's key. */
  stream: string;
  /** This process's consumer name (its lease owner id). */
  consumer: string;
  /** Entries idle this long are claimed from their (dead or busy) consumer: the conversation lease. */
  claimIdleMs: number;
  log: Logger;
  /** How long one XREADGROUP waits for new entries. */
  blockMs?: number;
}

type Wake = (conversationKey: string) => void;

interface StreamEntry {
  id: string;
  conversation: string;
}

/** RESP2 stream entries `[[id, [field, value, …]], …]` → ours; anything else (a deleted entry is nil) is skipped. */
function parseEntries(raw: unknown): StreamEntry[] {
  if (!Array.isArray(raw)) return [];
  const entries: StreamEntry[] = [];
  for (const item of raw) {
    if (!Array.isArray(item) || typeof item[0] !== 'string' || !Array.isArray(item[1])) continue;
    const fields: unknown[] = item[1];
    const at = fields.indexOf('c');
    const conversation = at >= 0 ? fields[at + 1] : undefined;
    if (typeof conversation === 'string') entries.push({ id: item[0], conversation });
  }
  return entries;
}

export class RedisWakeFeed {
  private reader: RedisClient | undefined;
  private claimTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private claiming = false;
  /** Entries delivered to this process and not yet acknowledged, by conversation. */
  private readonly unacknowledged = new Map<string, Set<string>>();

  constructor(private readonly options: WakeFeedOptions) {}

  /** Creates the group when missing and starts reading; `wake` is called for each delivered entry. */
  async start(wake: Wake, room: WorkerRoom = unlimited): Promise<void> {
    await this.createGroup();
    // XREADGROUP BLOCK holds its connection: a connection of its own.
    const reader = this.options.client.duplicate();
    reader.on('error', () => undefined);
    await reader.connect();
    this.reader = reader;
    void this.readLoop(wake, room);
    const claimEvery = Math.max(100, Math.floor(this.options.claimIdleMs / 2));
    this.claimTimer = setInterval(() => void this.claimIdle(wake, room), claimEvery);
    this.claimTimer.unref();
  }

  /** The consumer group, unless it exists already. */
  private async createGroup(): Promise<void> {
    const { client, stream } = this.options;
    try {
      await client.sendCommand(['XGROUP', 'CREATE', stream, group, '0', 'MKSTREAM']);
    } catch (error) {
      if (!describeError(error).startsWith('BUSYGROUP')) throw error;
    }
  }

  /**
   * The conversation's entries delivered so far, to acknowledge once its drain ends (taken now, synchronously: an
   * entry delivered after this call belongs to the next drain).
   */
  takeDelivered(conversationKey: string): string[] {
    const ids = this.unacknowledged.get(conversationKey);
    this.unacknowledged.delete(conversationKey);
    return ids ? [...ids] : [];
  }

  /** Acknowledges entries; a failure leaves them pending, to be claimed and looked at again (harmless). */
  async acknowledge(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    try {
      await this.options.client.sendCommand(['XACK', this.options.stream, group, ...ids]);
    } catch (error) {
      this.options.log.warn({ error: describeError(error) }, 'inbound queue: wake acknowledgement failed (will be looked at again)');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.claimTimer);
    const reader = this.reader;
    this.reader = undefined;
    // Ends the blocked XREADGROUP at once; its entries stay pending for another process.
    reader?.destroy();
  }

  private deliver(entries: readonly StreamEntry[], wake: Wake): void {
    for (const entry of entries) {
      let ids = this.unacknowledged.get(entry.conversation);
      if (!ids) this.unacknowledged.set(entry.conversation, (ids = new Set()));
      ids.add(entry.id);
    }
    for (const conversation of new Set(entries.map((entry) => entry.conversation))) wake(conversation);
  }

  private async readLoop(wake: Wake, room: WorkerRoom): Promise<void> {
    const { stream, consumer } = this.options;
    let failures = 0;
    while (!this.stopped && this.reader) {
      while (room.free() <= 0 && !this.stopped) await room.whenFree();
      if (this.stopped || !this.reader) return;
      try {
        const reply = await this.reader.sendCommand([
          'XREADGROUP',
          'GROUP',
          group,
          consumer,
          'COUNT',
          String(Math.min(readCount, room.free())),
          'BLOCK',
          String(this.options.blockMs ?? 5000),
          'STREAMS',
          stream,
          '>',
        ]);
        failures = 0;
        if (Array.isArray(reply)) for (const streamReply of reply) if (Array.isArray(streamReply)) this.deliver(parseEntries(streamReply[1]), wake);
      } catch (error) {
        if (this.stopped) return;
        // A Redis that came back without its data (no persistence) has no group: made again, reading goes on. What
        // it lost is found again by the next start's look at the open conversations.
        if (describeError(error).includes('NOGROUP')) {
          this.options.log.warn('inbound queue: the wake stream was gone (Redis restarted empty?): created again');
          await this.createGroup().catch(() => undefined);
          continue;
        }
        if (failures++ === 0) this.options.log.warn({ error: describeError(error) }, 'inbound queue: reading new messages failed (retrying)');
        // Redis is down: wait for the client's own reconnection before asking again (bounded back-off).
        await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** Math.min(failures, 5))).unref());
      }
    }
  }

  /** Entries idle for a lease: their process died, or lost the lease race; look at their conversations here. */
  private async claimIdle(wake: Wake, room: WorkerRoom): Promise<void> {
    if (this.stopped || this.claiming || room.free() <= 0) return;
    this.claiming = true;
    const { client, stream, consumer, claimIdleMs } = this.options;
    try {
      let cursor = '0-0';
      for (let page = 0; page < 10; page++) {
        const count = Math.min(readCount, room.free());
        if (count <= 0) return;
        const reply = await client.sendCommand(['XAUTOCLAIM', stream, group, consumer, String(claimIdleMs), cursor, 'COUNT', String(count)]);
        if (!Array.isArray(reply) || typeof reply[0] !== 'string') return;
        this.deliver(parseEntries(reply[1]), wake);
        cursor = reply[0];
        if (cursor === '0-0') return;
      }
    } catch (error) {
      this.options.log.debug({ error: describeError(error) }, 'inbound queue: claiming idle entries failed (next tick)');
    } finally {
      this.claiming = false;
    }
  }
}
