// Uploads read and ingested at once in this process. Each holds its files in memory while a parser worker reads
// them, so the next one past the limit is refused ("busy, try again") rather than queued: a queue of uploads would
// be a queue of bodies in memory. (src/shared/job-limiter.ts's limiters queue; this one must not.)

export class UploadSlots {
  private used = 0;

  constructor(readonly size: number) {}

  /** A slot and the function that gives it back (once, however often it is called); undefined when all are taken. */
  take(): (() => void) | undefined {
    if (this.used >= this.size) return undefined;
    this.used += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= 1;
    };
  }

  get inUse(): number {
    return this.used;
  }
}
