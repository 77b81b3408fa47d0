import { PerKeyChain } from '../../src/shared/per-key-chain.js';

// One queue per chat: a job starts when the chat's previous job has settled, so the parts of two turns in one chat
// never interleave; different chats run side by side. A failed job does not stop the ones behind it.

export class ChatQueue<ChatId = number> {
  private readonly chain = new PerKeyChain<ChatId>();

  run<Result>(chatId: ChatId, job: () => Promise<Result>): Promise<Result> {
    return this.chain.run(chatId, job);
  }

  /** Chats with a job running or waiting. */
  activeChats(): number {
    return this.chain.pendingKeys;
  }
}
