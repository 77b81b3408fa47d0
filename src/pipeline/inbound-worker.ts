import type Keyv from 'keyv';
import type { TurnQueue } from '../limits/turn-queue.js';
import type { InboundQueue, QueuedMessage } from '../queue/inbound-queue.js';
import type { AcceptResult, InboundHandler, PlatformAdapter, Responder, SpaceMove } from '../shared/channel.js';
import { describeError } from '../shared/describe-error.js';
import { logFailure, type Logger } from '../shared/log.js';
import type { InboundMessage, Platform } from '../shared/types.js';
import { queuedReplies, type MessageReplies } from './reply-journal.js';
import { moveSpace, type SpaceMoveStores } from './space-move.js';

/** What the worker runs each stored message through: the router's queued path and its set-aside notice (router.ts). */
export interface QueuedRoute {
  process(
    message: InboundMessage,
    responder: Responder,
    replies: MessageReplies,
    hooks: { turnDone(): void; attempt: number; responderFor(message: InboundMessage): Responder | undefined },
  ): Promise<unknown>;
  setAside(message: InboundMessage, responder: Responder, replies: MessageReplies): Promise<unknown>;
}

export interface InboundWorkerOptions {
  queue: InboundQueue;
  /** The global concurrency limit (TURN_CONCURRENCY), shared with the direct path. */
  turns: TurnQueue;
  /**
   * Runs one stored message (`process`; its replies go through `replies`, and it calls `turnDone` once the model's
   * part is over: the concurrency slot is freed then, see runInSlot) and tells the user of a message set aside (a
   * crash loop) through the same reply path: the outbound DLP and the reply journal.
   */
  router: QueuedRoute;
  /** The adapters of this process: a message is answered through the responder of its platform's adapter. */
  adapters: readonly Pick<PlatformAdapter, 'platform' | 'responderFor'>[];
  /**
   * False while a platform's start has not finished (its bot username unknown): its messages wait, as admission
   * needs the username (`/cmd@bot`); wakeOpen() looks at them again. Every platform counts as started without it.
   */
  platformStarted?: (platform: Platform) => boolean;
  /** A space's state: what moves with it (InboundHandler.moveSpace) and its knowledge bases' names. */
  spaces: SpaceMoveStores;
  /** The adapters' own records (InboundHandler.rememberRecord), kept in the shared cache namespace. */
  records: Pick<Keyv, 'get' | 'set'>;
  log: Logger;
  /** Attempts a message may have (default 2: an interrupted attempt is resumed once); the next sets it aside. */
  maxAttempts?: number;
  /**
   * With a shared queue: how many conversations this process takes on at once (running or waiting for a turn slot).
   * More wait in the shared stream for a process with room. Unbounded when not set.
   */
  maxConversations?: number;
  /**
   * A drain that failed (its lease lost in a pause, the store briefly unreachable) looks at its conversation again
   * after this long, doubling per failure in a row up to a minute — otherwise its messages would wait for the
   * conversation's next message or the next start. Default one second.
   */
  retryDelayMs?: number;
}

/** The longest wait before a failed conversation is looked at again. */
const maxRetryDelayMs = 60_000;

interface Drain {
  /** A message arrived while this drain was looking: look once more before ending. */
  again: boolean;
  done: Promise<void>;
}

/**
 * The adapters' inbound handler: `accept` stores and returns; the worker then processes every conversation's
 * messages one at a time in stored order, conversations side by side. Nothing is dispatched before `resume()`,
 * which also picks up what an earlier process left unfinished, so a restart keeps arrival order.
 */
export class InboundWorker implements InboundHandler {
  private readonly drains = new Map<string, Drain>();
  /** Waiting for a drain to end (WorkerRoom.whenFree). */
  private roomWaiters: (() => void)[] = [];
  private started = false;
  private stopping = false;
  /** Stored messages whose attempt is running in this process (for markInFlightCrashed). */
  private readonly inFlight = new Set<number>();
  /** Conversations whose drain failed, with their failures in a row (the retry's back-off). */
  private readonly failures = new Map<string, number>();

  /** Each platform's adapter; of two for one platform the later wins (a test's own console beside the default one). */
  private readonly adapters: ReadonlyMap<Platform, Pick<PlatformAdapter, 'responderFor'>>;

  constructor(private readonly options: InboundWorkerOptions) {
    this.adapters = new Map(options.adapters.map((adapter) => [adapter.platform, adapter]));
  }

  async accept(message: InboundMessage): Promise<AcceptResult> {
    const { queue } = this.options;
    const result = await queue.accept(message);
    // A shared queue hands the message to one of the processes (its wake stream); the console lives in this one.
    if (result === 'duplicate')
      this.options.log.info({ platform: message.platform, conversation: message.conversationKey, messageId: message.messageId }, 'duplicate delivery ignored');
    else if (!queue.listen || message.platform === 'console') this.wake(message.conversationKey);
    return result;
  }

  moveSpace(move: SpaceMove): Promise<void> {
    return moveSpace({ ...this.options.spaces, log: this.options.log }, move);
  }

  async knowledgeBaseNames(spaceKey: string): Promise<string[]> {
    return (await this.options.spaces.knowledge.listKnowledgeBases({ spaceKey })).map((knowledgeBase) => knowledgeBase.name);
  }

  async rememberRecord(key: string, ttlSeconds: number, value?: string): Promise<void> {
    await this.options.records.set(`adapter-record:${key}`, value ?? true, ttlSeconds * 1000);
  }

  async hasRecord(key: string): Promise<boolean> {
    const value: unknown = await this.options.records.get(`adapter-record:${key}`);
    return value === true || typeof value === 'string';
  }

  async readRecord(key: string): Promise<string | undefined> {
    const value: unknown = await this.options.records.get(`adapter-record:${key}`);
    return typeof value === 'string' ? value : undefined;
  }

  /** The responder of the adapter that received the message; undefined when it is not running here or not started. */
  private responderFor(message: InboundMessage): Responder | undefined {
    if (this.options.platformStarted?.(message.platform) === false) return undefined;
    return this.adapters.get(message.platform)?.responderFor(message);
  }

  /** Starts processing: every unfinished message first (oldest conversation first), then new ones as they come. */
  async resume(): Promise<void> {
    if (this.started) return;
    const { queue } = this.options;
    const open = await queue.openConversations();
    this.started = true;
    if (!queue.listen) {
      for (const conversationKey of open) this.wake(conversationKey);
      return;
    }
    await queue.listen((conversationKey) => this.wake(conversationKey), { free: () => this.room(), whenFree: () => this.whenRoom() });
    void this.wakeAsRoomFrees(open);
  }

  /**
   * Looks at every unfinished conversation again: a platform whose start finished late has messages that were left
   * queued while it could not answer them (stored by its webhook meanwhile). They run now, in stored order.
   */
  async wakeOpen(): Promise<void> {
    if (!this.started || this.stopping) return;
    const { queue } = this.options;
    const open = await queue.openConversations();
    if (queue.listen) await this.wakeAsRoomFrees(open);
    else for (const conversationKey of open) this.wake(conversationKey);
  }

  /**
   * A shared queue's open conversations belong to every process: this one takes as many as it has room for and the
   * rest as room frees, so a process that starts while others run does not claim the whole line at once. A
   * conversation another process took meanwhile is turned away by its lease (the claim in drain).
   */
  private async wakeAsRoomFrees(open: readonly string[]): Promise<void> {
    for (const conversationKey of open) {
      while (this.room() <= 0 && !this.stopping) await this.whenRoom();
      if (this.stopping) return;
      this.wake(conversationKey);
    }
  }

  private room(): number {
    return (this.options.maxConversations ?? Infinity) - this.drains.size;
  }

  private whenRoom(): Promise<void> {
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /**
   * For the process's last-resort handler (an uncaught exception or unhandled rejection): the messages being worked
   * on now get a strike, so each is set aside the next time it starts instead of being tried again. Synchronous
   * with the SQLite queue (written when this returns); with Redis it resolves once stored (await it, bounded, before
   * exiting). Never throws.
   */
  markInFlightCrashed(): void | Promise<void> {
    const sequences = [...this.inFlight];
    if (sequences.length === 0) return;
    const log = (error: unknown) => this.options.log.error({ sequences, error: describeError(error) }, 'could not mark the messages in flight as crashed');
    try {
      const stored = this.options.queue.strike(sequences);
      this.options.log.error({ sequences }, 'crash: the messages in flight are set aside when they next start');
      return stored instanceof Promise ? stored.catch(log) : undefined;
    } catch (error) {
      log(error);
      return undefined;
    }
  }

  /** Starts no new message; resolves when the running ones have finished (the caller bounds the wait). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.idle();
  }

  /** Resolves when no conversation has a message running or waiting to run in this process. */
  async idle(): Promise<void> {
    while (this.drains.size > 0) await Promise.all([...this.drains.values()].map((drain) => drain.done));
  }

  private wake(conversationKey: string): void {
    if (!this.started || this.stopping) return;
    const running = this.drains.get(conversationKey);
    if (running) {
      running.again = true;
      return;
    }
    const drain: Drain = { again: false, done: Promise.resolve() };
    this.drains.set(conversationKey, drain);
    drain.done = this.drain(conversationKey, drain);
  }

  private async drain(conversationKey: string, drain: Drain): Promise<void> {
    const { queue, log } = this.options;
    let failed = false;
    try {
      let more = false;
      do {
        drain.again = false;
        // A shared queue: only the process holding the conversation's lease looks at its messages (their order).
        const claim = queue.claim ? await queue.claim(conversationKey) : undefined;
        if (queue.claim && !claim) return;
        let handedOver = this.stopping;
        let requeue = false;
        try {
          for (let entry = await queue.next(conversationKey); entry && !this.stopping; entry = await queue.next(conversationKey)) {
            const responder = this.responderFor(entry.message);
            if (!responder) {
              // Its platform is not running in this process (or its start has not finished): the conversation waits for
              // a process that has it, or for the start (wakeOpen).
              log.info({ platform: entry.message.platform, conversation: conversationKey }, 'its platform is not started here: message left queued');
              handedOver = true;
              break;
            }
            await this.runInSlot(conversationKey, entry, responder);
            // A full process sends the conversation's next message to the back of the shared line, so the
            // conversations waiting there get their turn first (otherwise a busy conversation keeps its place).
            if (claim && this.room() <= 0) {
              requeue = true;
              break;
            }
          }
        } catch (error) {
          // Not finished here: a shared queue keeps its wake pending (another process may claim it after a lease).
          failed = handedOver = true;
          throw error;
        } finally {
          handedOver ||= this.stopping;
          more = (await claim?.release({ handedOver, requeue })) === true && !handedOver;
        }
        // A wake while handing over (its platform's start just finished: wakeOpen) is not lost: look again.
        if (requeue || (handedOver && !drain.again)) return;
      } while ((drain.again || more) && !this.stopping);
    } catch (error) {
      failed = true;
      log.error({ conversation: conversationKey, error: describeError(error) }, 'inbound queue failed: the conversation is looked at again shortly');
    } finally {
      // In the same step as the last look at the queue: a wake() after it starts a new drain, none is lost.
      this.drains.delete(conversationKey);
      if (failed) this.retryLater(conversationKey);
      else this.failures.delete(conversationKey);
      const waiters = this.roomWaiters;
      this.roomWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  /** A failed conversation is woken again after a back-off (nothing else would: its wake was this drain). */
  private retryLater(conversationKey: string): void {
    if (this.stopping) return;
    const failures = (this.failures.get(conversationKey) ?? 0) + 1;
    this.failures.set(conversationKey, failures);
    const delay = Math.min(maxRetryDelayMs, (this.options.retryDelayMs ?? 1000) * 2 ** Math.min(failures - 1, 16));
    setTimeout(() => this.wake(conversationKey), delay).unref();
  }

  /**
   * One message, holding a TURN_CONCURRENCY slot until its turn is done (or the whole message, when it has no turn)
   * — not while its answer is sent: a send waiting on a rate limit (Discord's 50 requests a second) would otherwise
   * hold slots other conversations' turns wait for. This conversation's next message still waits for the send.
   */
  private async runInSlot(conversationKey: string, entry: QueuedMessage, responder: Responder): Promise<void> {
    let markTurnDone: () => void = () => undefined;
    const turnDone = new Promise<void>((resolve) => (markTurnDone = resolve));
    let running: Promise<void> = Promise.resolve();
    await this.options.turns.run(conversationKey, async () => {
      running = this.runOne(entry, responder, markTurnDone);
      // Awaited below; a failure after the slot is freed must not count as unhandled in between.
      running.catch(() => undefined);
      await Promise.race([turnDone, running]);
    });
    await running;
  }

  private async runOne(entry: QueuedMessage, responder: Responder, turnDone: () => void): Promise<void> {
    // Got its slot only after shutdown began: left for the next start.
    if (this.stopping) return;
    const { queue, log } = this.options;
    const base = { platform: entry.message.platform, conversation: entry.message.conversationKey, messageId: entry.message.messageId };
    const attempts = await queue.startAttempt(entry.sequence);
    const maxAttempts = this.options.maxAttempts ?? 2;
    if (attempts > maxAttempts) {
      await this.setAside(entry, responder, attempts, base);
      return;
    }
    if (attempts > 1) log.info({ ...base, attempts, answered: entry.answered }, 'resuming a message after a restart');
    this.inFlight.add(entry.sequence);
    try {
      let outcome: 'done' | 'failed' = 'done';
      try {
        await this.options.router.process(entry.message, responder, await queuedReplies(queue, entry, attempts), {
          turnDone,
          attempt: attempts,
          responderFor: (message) => this.responderFor(message),
        });
      } catch (error) {
        // A send the platform refused, or a bug: logged and given up, so the conversation is not blocked for good.
        logFailure(log, 'error', base, 'message not answered', error);
        outcome = 'failed';
      }
      // A store that refuses this write fails the drain, which looks again later (retryLater): the stored answer
      // is delivered then, not produced again.
      await queue.finish(entry.sequence, outcome);
    } finally {
      this.inFlight.delete(entry.sequence);
    }
  }

  /**
   * A poison message: its handling was interrupted twice (the process died while on it; it cannot tell a crash from
   * `kill -9` or a power cut, so one interruption is resumed), or once after this process caught its own crash
   * (markInFlightCrashed). It is marked failed and the user is told — once: if telling them dies too, the next start
   * only marks it. Logged with its id, never its text.
   */
  private async setAside(entry: QueuedMessage, responder: Responder, attempts: number, base: Record<string, string>): Promise<void> {
    const { queue, log } = this.options;
    const maxAttempts = this.options.maxAttempts ?? 2;
    log.error({ ...base, attempts }, 'message set aside: its handling was interrupted too many times (a crash loop)');
    if (attempts === maxAttempts + 1) {
      this.inFlight.add(entry.sequence);
      try {
        await this.options.router.setAside(entry.message, responder, await queuedReplies(queue, entry, attempts));
      } catch (error) {
        log.error({ ...base, error: describeError(error) }, 'could not tell the user their message was set aside');
      } finally {
        this.inFlight.delete(entry.sequence);
      }
    }
    await queue.finish(entry.sequence, 'failed');
  }
}
