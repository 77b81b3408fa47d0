// One queue per chat: a job starts when the chat's previous job has settled, so the parts of two turns in one chat
// never interleave; different chats run side by side. A failed job does not stop the ones behind it.

export class ChatQueue {
  private readonly tails = new Map<number, Promise<void>>();

  run<Result>(chatId: number, job: () => Promise<Result>): Promise<Result> {
    const previous = this.tails.get(chatId) ?? Promise.resolve();
    const result = previous.then(job);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(chatId, tail);
    void tail.then(() => {
      if (this.tails.get(chatId) === tail) this.tails.delete(chatId);
    });
    return result;
  }

  /** Chats with a job running or waiting. */
  activeChats(): number {
    return this.tails.size;
  }
}
