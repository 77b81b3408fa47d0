/**
 * Runs tasks one after another per key, in the order they were handed in, keys side by side: the turns of one
 * conversation, the parts of one chat's answers, a read-modify-write of one keyv entry. Keys with nothing pending
 * are forgotten.
 */
export class PerKeyChain<Key = string> {
  private readonly tails = new Map<Key, Promise<void>>();

  run<Result>(key: Key, task: () => Promise<Result>): Promise<Result> {
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

  /** Resolves when no key has a task running or waiting. */
  async drain(): Promise<void> {
    while (this.tails.size > 0) await Promise.all([...this.tails.values()]);
  }
}
