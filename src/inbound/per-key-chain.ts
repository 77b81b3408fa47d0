/**
 * Runs tasks one after another per key, in the order they were handed in, so a read-modify-write on a keyv entry
 * cannot lose a concurrent write of the same process. Keys with nothing pending are forgotten.
 */
export class PerKeyChain {
  private readonly tails = new Map<string, Promise<void>>();

  run<Result>(key: string, task: () => Promise<Result>): Promise<Result> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    // The tail never rejects: one failed task must not stop the ones queued behind it.
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task running or waiting (for tests: the map must not grow without bound). */
  get pendingKeys(): number {
    return this.tails.size;
  }
}
