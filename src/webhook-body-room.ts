// How many webhook bodies are read at once, and how many bytes they may hold together (docs/architecture.md,
// "Processes and operations"). Every body is unauthenticated until it has been read (LINE signs the body), so
// without this a flood of large bodies with a bad signature is held in memory all at once. A request waits for
// room (its socket paused: the bytes stay in the kernel, not in the heap) up to `maxWaiting` requests and
// `maxWaitMs`; beyond that it is refused (503 with Retry-After), never buffered.

export interface WebhookBodyRoomLimits {
  /** Bodies read side by side. */
  maxBodies: number;
  /** Bytes reserved by the bodies being read (each reserves its Content-Length, or its route's cap when unknown). */
  maxBytes: number;
  /** Requests waiting for room; one more is refused at once. */
  maxWaiting: number;
  /** How long a request waits for room before it is refused. */
  maxWaitMs: number;
}

/** Hands back the room a request took; safe to call twice. */
export type RoomRelease = () => void;

interface Waiter {
  bytes: number;
  grant(release: RoomRelease): void;
  timer: NodeJS.Timeout;
}

export class WebhookBodyRoom {
  private bodies = 0;
  private bytes = 0;
  private readonly waiting: Waiter[] = [];

  constructor(private readonly limits: WebhookBodyRoomLimits) {}

  /** Room for one body of `bytes`; undefined when refused (the line is full, or no room came in time). */
  enter(bytes: number): Promise<RoomRelease | undefined> {
    const wanted = Math.min(bytes, this.limits.maxBytes);
    if (this.waiting.length === 0 && this.fits(wanted)) return Promise.resolve(this.take(wanted));
    if (this.waiting.length >= this.limits.maxWaiting) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        bytes: wanted,
        grant: resolve,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          resolve(undefined);
        }, this.limits.maxWaitMs),
      };
      this.waiting.push(waiter);
    });
  }

  /** For /metrics and tests. */
  usage(): { bodies: number; bytes: number; waiting: number } {
    return { bodies: this.bodies, bytes: this.bytes, waiting: this.waiting.length };
  }

  private fits(bytes: number): boolean {
    return this.bodies < this.limits.maxBodies && this.bytes + bytes <= this.limits.maxBytes;
  }

  private take(bytes: number): RoomRelease {
    this.bodies += 1;
    this.bytes += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.bodies -= 1;
      this.bytes -= bytes;
      this.admitWaiting();
    };
  }

  /** First come, first served: a large body at the head is not overtaken by small ones behind it. */
  private admitWaiting(): void {
    for (let next = this.waiting[0]; next && this.fits(next.bytes); next = this.waiting[0]) {
      this.waiting.shift();
      clearTimeout(next.timer);
      next.grant(this.take(next.bytes));
    }
  }
}
