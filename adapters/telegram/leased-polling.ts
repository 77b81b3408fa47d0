import type { HeldLease, SingletonLease } from '../../src/shared/lease.js';
import type { Logger } from '../../src/shared/log.js';
import { telegramErrorText } from './error-text.js';
import type { UpdatePoller } from './polling.js';
import type { Sleep } from '../common/scheduler.js';

// Long polling in one process of several (they share REDIS_URL): Telegram answers a second getUpdates poller with
// 409 Conflict, so a process polls only while it holds the lease, stops the moment the lease is lost, and waits to
// take it again. Meanwhile it is on standby: its responders still send answers, only updates come in elsewhere.

export type PollingRole = 'standby' | 'polling';

export interface LeasedPollingOptions {
  lease: SingletonLease;
  /** Starts polling (clearing a stale webhook first); called each time the lease is taken. */
  startPoller(): Promise<{ poller: UpdatePoller; running: Promise<void> }>;
  logger: Logger;
  sleep: Sleep;
  /** Wait after polling failed to start or ended with an error, before asking for the lease again. */
  retryMs?: number;
}

type Ending = 'lost' | 'stopped' | 'ended';

export class LeasedPolling {
  private readonly abort = new AbortController();
  private readonly stopped: Promise<void>;
  private current: UpdatePoller | undefined;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: LeasedPollingOptions) {
    this.stopped = new Promise((resolve) => this.abort.signal.addEventListener('abort', () => resolve(), { once: true }));
  }

  /** Whether this process polls now, or waits for the lease. */
  get role(): PollingRole {
    return this.current ? 'polling' : 'standby';
  }

  /** The poller of this turn with the lease reports a 409 from somewhere outside the lease (a process without Redis). */
  get inConflict(): boolean {
    return this.current?.inConflict ?? false;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /** Stops polling (the batch in hand is stored and confirmed) and gives the lease up for the next process. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.abort.signal.aborted) {
      const held = await this.options.lease.acquire(this.abort.signal);
      if (!held) return;
      await this.pollWhileHeld(held);
    }
  }

  private async pollWhileHeld(held: HeldLease): Promise<void> {
    let ending: Ending = 'ended';
    try {
      const { poller, running } = await this.options.startPoller();
      this.current = poller;
      this.options.logger.info('telegram polling: this process holds the polling lease and polls for updates');
      const ended = running.then(
        () => 'ended' as const,
        (error: unknown) => {
          this.options.logger.error({ error: telegramErrorText(error) }, 'telegram polling stopped: giving the lease up and trying again');
          return 'ended' as const;
        },
      );
      ending = await Promise.race([held.lost.then(() => 'lost' as const), this.stopped.then(() => 'stopped' as const), ended]);
      // Once lost, another process may poll already: no confirming getUpdates, it would end that process's poll.
      poller.stop({ confirm: ending !== 'lost' });
      await ended;
    } catch (error) {
      this.options.logger.error({ error: telegramErrorText(error) }, 'telegram polling did not start: giving the lease up and trying again');
    } finally {
      this.current = undefined;
      if (ending !== 'lost') await held.release();
    }
    if (ending === 'lost') this.options.logger.warn('telegram polling: the polling lease was lost, on standby until it is free again');
    if (ending === 'ended' && !this.abort.signal.aborted) await Promise.race([this.options.sleep(this.options.retryMs ?? 5_000), this.stopped]);
  }
}
