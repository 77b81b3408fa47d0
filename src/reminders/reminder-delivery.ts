import type { DeliveryJournal, PlatformAdapter } from '../shared/channel.js';
import { say } from '../shared/i18n.js';
import type { Logger } from '../shared/log.js';
import type { InboundMessage, Platform, Reply } from '../shared/types.js';
import { originInSpace, parseReminderOrigin } from './reminder-origin.js';
import type { ClaimedReminder, Reminder, ReminderStore } from './reminder-store.js';
import { reminderTexts } from './reminder-texts.js';
import { describeWhen } from './when/describe-when.js';
import { nextOccurrence } from './when/next-occurrence.js';

// Delivers reminders when they are due, by code (docs/architecture.md, "Reminders"). Several bot processes may run
// this loop over one shared store: a due reminder is claimed with a lease (ReminderStore.claimDue), so one process
// sends it; each part it sends is marked in the store, so a process that dies mid-send leaves only that part to be
// sent again by the next claimer. A reminder due while no process ran is sent late, saying so; a recurring one then
// moves to its next time after now (the missed ones are not sent one by one).

/** When to look again (the shape of adapters/common/scheduler.ts, so tests move time by hand). */
export interface Scheduler {
  /** Runs `callback` once after `delayMs`; the returned function cancels it. */
  schedule(delayMs: number, callback: () => void): () => void;
}

const timerScheduler: Scheduler = {
  schedule: (delayMs, callback) => {
    // Unref'd: a pending look at the reminders never keeps a process alive that is otherwise done.
    const timer = setTimeout(callback, delayMs);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export interface ReminderDeliveryOptions {
  store: ReminderStore;
  adapters: readonly Pick<PlatformAdapter, 'platform' | 'responderFor'>[];
  /** False while a platform's start has not finished: its reminders wait (claimed again once the lease expires). */
  platformStarted?: (platform: Platform) => boolean;
  /** The outbound DLP (src/pipeline/outbound.ts): a reminder's text leaves through it like every reply. */
  prepare(reply: Reply, conversationKey: string, language: Reminder['language']): Promise<Reply>;
  now: () => number;
  log: Logger;
  scheduler?: Scheduler;
  /** How long a claim lasts: a process that died holding it is replaced after this. */
  leaseMs?: number;
  /** The longest sleep: reminders another process added are seen within it. */
  pollMs?: number;
  /**
   * Writes the text of a reminder of a kind (a catch-up digest) when it is due; it may take minutes (a model), the
   * claim is renewed meanwhile. Absent: such reminders wait.
   */
  compose?(reminder: Reminder): Promise<ComposedText>;
}

/** What a composed reminder says this time: a text, nothing this time (`skip`), or nothing ever again (`stop`: deleted). */
export type ComposedText = { text: string } | { skip: true } | { stop: true };

/** Later than this after its time, a reminder says it is late. */
const lateAfterMs = 2 * 60_000;
/** Attempts at one occurrence before it is given up (the chat is gone, the bot was removed): logged. */
const maximumAttempts = 5;
const claimBatch = 10;

class LeaseLost extends Error {}

export class ReminderDelivery {
  private readonly adapters: ReadonlyMap<Platform, Pick<PlatformAdapter, 'responderFor'>>;
  private readonly scheduler: Scheduler;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly attempts = new Map<string, number>();
  private cancelTimer: (() => void) | undefined;
  private running: Promise<void> | undefined;
  /** Composed reminders being written and sent beside the loop (a digest's summary must not hold up the others). */
  private readonly composing = new Set<Promise<void>>();
  private stopped = true;
  private again = false;

  constructor(private readonly options: ReminderDeliveryOptions) {
    this.adapters = new Map(options.adapters.map((adapter) => [adapter.platform, adapter]));
    this.scheduler = options.scheduler ?? timerScheduler;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 30_000;
  }

  /** Starts the loop: what is due now is sent at once. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    void this.wake();
  }

  /** Looks at the store now (a reminder was added; a test moved the clock). Resolves when that look is done. */
  wake(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.cancelTimer?.();
    this.running = this.round().finally(() => {
      this.running = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        void this.wake();
      }
    });
    return this.running;
  }

  /** Resolves once the round under way and every composed reminder being written are done (tests; stop). */
  async idle(): Promise<void> {
    await this.running;
    await Promise.all([...this.composing]);
  }

  /** Stops the loop; a round under way finishes its sends. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelTimer?.();
    await this.idle();
  }

  private async round(): Promise<void> {
    let delay = this.pollMs;
    try {
      const now = this.options.now();
      const claims = await this.options.store.claimDue(now, this.leaseMs, claimBatch);
      let delivered = 0;
      for (const claim of claims) if (await this.deliver(claim)) delivered++;
      const next = await this.options.store.nextDueAt();
      const after = this.options.now();
      if (next !== undefined) {
        // A full batch or a due reminder left: at once if this round got anywhere, else after a lease.
        const dueNow = next <= after;
        delay = dueNow ? (delivered > 0 ? 0 : this.leaseMs) : Math.min(this.pollMs, next - after);
      }
    } catch (error) {
      this.options.log.warn({ error: String(error) }, 'reminders: the store could not be read; trying again later');
    }
    if (!this.stopped) this.cancelTimer = this.scheduler.schedule(Math.max(0, delay), () => void this.wake());
  }

  /** Sends one claimed reminder; true when its occurrence is done (sent, or given up). */
  private async deliver(claim: ClaimedReminder): Promise<boolean> {
    const { reminder } = claim;
    const { log } = this.options;
    const stored = parseReminderOrigin(reminder.origin);
    const origin = stored && originInSpace(stored, reminder.spaceKey);
    if (!origin) {
      log.warn({ space: reminder.spaceKey, reminder: reminder.id }, 'reminders: a stored reminder has no readable chat; dropped');
      await this.options.store.complete(claim);
      return true;
    }
    const adapter = this.adapters.get(origin.platform);
    if (!adapter || this.options.platformStarted?.(origin.platform) === false) return false;
    if (reminder.kind !== undefined) {
      this.startComposing(claim, origin, adapter);
      return false;
    }
    return this.send(claim, origin, adapter, (now, next) => this.replyOf(reminder, now, next, origin.messageId));
  }

  /** Writes a composed reminder's text beside the loop, its claim renewed until it is sent; the loop goes on. */
  private startComposing(claim: ClaimedReminder, origin: InboundMessage, adapter: Pick<PlatformAdapter, 'responderFor'>): void {
    const compose = this.options.compose;
    if (!compose) return;
    let renewing = true;
    const renew = () => {
      if (!renewing) return;
      void this.options.store.renew(claim, this.options.now(), this.leaseMs).catch(() => false);
      cancelRenew = this.scheduler.schedule(Math.floor(this.leaseMs / 3), renew);
    };
    let cancelRenew = this.scheduler.schedule(Math.floor(this.leaseMs / 3), renew);
    const work = (async () => {
      try {
        const composed = await compose(claim.reminder).catch((error: unknown) => ({ error }));
        if ('error' in composed) {
          await this.failed(claim, this.nextDueAt(claim.reminder, this.options.now()), composed.error);
          return;
        }
        if ('stop' in composed || 'skip' in composed) {
          await this.options.store.complete(claim, 'stop' in composed ? undefined : this.nextDueAt(claim.reminder, this.options.now()));
          return;
        }
        // Not a reply: a digest stands on its own, it does not quote the command that set it every day.
        await this.send(claim, origin, adapter, () => ({ text: composed.text, files: [] }));
      } catch (error) {
        this.options.log.warn({ reminder: claim.reminder.id, error: String(error) }, 'reminders: a composed reminder failed');
      } finally {
        renewing = false;
        cancelRenew();
      }
    })();
    this.composing.add(work);
    void work.finally(() => this.composing.delete(work));
  }

  /** Sends one occurrence's reply; true when the occurrence is done (sent, or given up). */
  private async send(
    claim: ClaimedReminder,
    origin: InboundMessage,
    adapter: Pick<PlatformAdapter, 'responderFor'>,
    replyOf: (now: number, next: number | undefined) => Reply,
  ): Promise<boolean> {
    const { reminder } = claim;
    const { log } = this.options;
    const now = this.options.now();
    const next = this.nextDueAt(reminder, now);
    try {
      const reply = await this.options.prepare(replyOf(now, next), origin.conversationKey, reminder.language);
      await adapter.responderFor(origin).send(reply, this.journalOf(claim));
      this.attempts.delete(reminder.id);
      if (!(await this.options.store.complete(claim, next))) log.warn({ reminder: reminder.id }, 'reminders: the lease ran out while sending');
      log.info({ space: reminder.spaceKey, reminder: reminder.id, lateMs: Math.max(0, now - reminder.dueAt) }, 'reminder sent');
      return true;
    } catch (error) {
      if (error instanceof LeaseLost) return false;
      return this.failed(claim, next, error);
    }
  }

  /** Counts a failed attempt; past the last one the occurrence is given up (true), a recurring reminder keeping its next. */
  private async failed(claim: ClaimedReminder, next: number | undefined, error: unknown): Promise<boolean> {
    const { reminder } = claim;
    const { log } = this.options;
    const attempts = (this.attempts.get(reminder.id) ?? 0) + 1;
    this.attempts.set(reminder.id, attempts);
    const fields = { space: reminder.spaceKey, reminder: reminder.id, attempts, error: String(error) };
    if (attempts < maximumAttempts) {
      log.warn(fields, 'reminders: sending failed; trying again when the lease ends');
      return false;
    }
    // The chat is gone or refuses the bot: this occurrence is given up, a recurring reminder keeps its next one.
    log.error(fields, 'reminders: sending failed too often; this occurrence is given up');
    this.attempts.delete(reminder.id);
    await this.options.store.complete(claim, next);
    return true;
  }

  /** A recurring reminder's next time after both its due time and now (missed ones are skipped). */
  private nextDueAt(reminder: Reminder, now: number): number | undefined {
    if (!reminder.recurrence || !reminder.timeOfDay) return undefined;
    const after = new Date(Math.max(now, reminder.dueAt));
    return nextOccurrence(reminder.recurrence, after, reminder.timeOfDay, reminder.timeZone).getTime();
  }

  private replyOf(reminder: Reminder, now: number, next: number | undefined, replyTo: string): Reply {
    const { language, timeZone } = reminder;
    const lines = [reminder.text ? say(reminderTexts.due, language, { subject: reminder.text }) : say(reminderTexts.dueNoSubject, language)];
    lines.push(say(reminderTexts.dueBy, language, { name: reminder.userName }));
    if (now - reminder.dueAt > lateAfterMs) {
      lines.push(say(reminderTexts.dueLate, language, { when: describeWhen(new Date(reminder.dueAt), undefined, language, timeZone) }));
    }
    if (next !== undefined) lines.push(say(reminderTexts.dueNext, language, { when: describeWhen(new Date(next), undefined, language, timeZone) }));
    return { text: lines.join('\n'), files: [], replyTo };
  }

  /**
   * The parts of this occurrence already sent, as the store remembers them across processes; keyed by the occurrence,
   * so a platform's idempotency key (LINE's retry key, kept 24 hours) is the same for a retry and new for the next day.
   */
  private journalOf(claim: ClaimedReminder): DeliveryJournal {
    const sent = new Set(claim.reminder.sentParts);
    return {
      deliveryKey: `reminder:${claim.reminder.id}:${claim.reminder.dueAt}`,
      isSent: (part) => sent.has(part),
      sending: async () => undefined,
      sent: async (part) => {
        sent.add(part);
        if (!(await this.options.store.markPartSent(claim, part))) throw new LeaseLost('another process took this reminder');
      },
    };
  }
}
