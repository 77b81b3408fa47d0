// Whether a platform's webhook stores what it is sent. A webhook answers from the moment the HTTP server does, which
// can be before the adapter's start() has finished (or while it is being retried): a delivery the adapter can store
// then is stored (LINE needs only the handler), one it cannot yet (Telegram needs the bot's identity from getMe) waits
// a little for it, then gets a 503 that says why — the platform delivers it again. Only a stopped adapter says
// "shutting down".

export type GateState = 'open' | 'starting' | 'closed';

/** The 503's text for a delivery that was not stored. */
export const gateRefusal: Record<Exclude<GateState, 'open'>, string> = {
  starting: 'starting: not connected to the platform yet, deliver again later',
  closed: 'shutting down: deliver again later',
};

export class WebhookGate {
  private state: GateState = 'starting';
  private readonly waiters = new Set<() => void>();

  /** Deliveries are stored from now on (until close). */
  open(): void {
    if (this.state === 'closed') return;
    this.state = 'open';
    this.wakeAll();
  }

  /** The adapter stopped: nothing more is stored. */
  close(): void {
    this.state = 'closed';
    this.wakeAll();
  }

  /** The state now, or once it is no longer `starting`, waiting at most `maxWaitMs`. */
  async wait(maxWaitMs: number): Promise<GateState> {
    if (this.state !== 'starting') return this.state;
    let timer: NodeJS.Timeout | undefined;
    let wake: () => void = () => undefined;
    await new Promise<void>((resolve) => {
      wake = resolve;
      this.waiters.add(resolve);
      timer = setTimeout(resolve, maxWaitMs);
    });
    clearTimeout(timer);
    this.waiters.delete(wake);
    return this.state;
  }

  private wakeAll(): void {
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }
}
