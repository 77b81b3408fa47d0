import type { Responder } from '../shared/channel.js';
import type { Reply } from '../shared/types.js';
import type { MessageReplies } from './message-replies.js';

/**
 * Sends the replies of one message in order, each stored before any of its parts goes out. A message's replies are
 * notices (an unreadable image…) and then one final reply (the answer, a command's result, a refusal); storing the
 * final one also marks the message answered. On a replay, the notices an earlier attempt stored stand for the first
 * notices of this attempt, so the user never gets one twice, and nothing stored is produced again.
 */
export class ReplySink {
  /** Exactly what was handed to the responder, earlier replies included. */
  readonly sent: Reply[] = [];
  private notices = 0;

  constructor(
    private readonly replies: MessageReplies,
    private readonly responder: Responder,
  ) {}

  /** Delivers the parts of earlier replies that did not go out before the restart. */
  async deliverEarlier(): Promise<void> {
    for (const { index, reply } of this.replies.earlier) await this.deliver(index, reply);
  }

  async notice(reply: Reply): Promise<void> {
    const index = this.notices++;
    if (this.replies.earlier.some((stored) => stored.index === index)) return;
    await this.replies.store(index, reply, false);
    await this.deliver(index, reply);
  }

  async final(reply: Reply): Promise<void> {
    const index = Math.max(this.notices, ...this.replies.earlier.map((stored) => stored.index + 1));
    await this.replies.store(index, reply, true);
    await this.deliver(index, reply);
  }

  private async deliver(index: number, reply: Reply): Promise<void> {
    this.sent.push(reply);
    await this.responder.send(reply, await this.replies.journal(index));
  }
}
