import type { InboundMessage } from '../../src/shared/types.js';
import type { Scheduler } from '../common/scheduler.js';

// Albums: Telegram sends each photo of a media group as its own update with the same `media_group_id`, the caption
// on one of them, and no count. The collector folds them back into one question.

function messageNumber(message: InboundMessage): number {
  return Number(message.messageId.slice(message.messageId.lastIndexOf(':') + 1));
}

/** The members of one album as one message: the first member's ids, the caption of whichever has one, all files in order. */
export function mergeAlbum(members: readonly InboundMessage[]): InboundMessage {
  const ordered = [...members].sort((left, right) => messageNumber(left) - messageNumber(right));
  const [first] = ordered;
  if (!first) throw new Error('mergeAlbum needs at least one message');
  const captioned = ordered.find((member) => member.text !== '') ?? first;
  const attachments = ordered.flatMap((member) => member.attachments);
  // A video among photos is left out; an album of videos alone is told what the bot can read.
  const { unreadable: _first, ...rest } = first;
  const unreadable = attachments.length === 0 ? ordered.find((member) => member.unreadable)?.unreadable : undefined;
  return {
    ...rest,
    sender: captioned.sender,
    text: captioned.text,
    mentionsBot: ordered.some((member) => member.mentionsBot),
    repliesToBot: ordered.some((member) => member.repliesToBot),
    attachments,
    ...(unreadable ? { unreadable } : {}),
  };
}

export interface AlbumCollectorOptions {
  scheduler: Scheduler;
  /** Quiet time after the last member before an album counts as complete. */
  quietMs: number;
  /** Receives every message in its chat's order: albums merged, everything else as it came. */
  emit(message: InboundMessage): void;
}

interface OpenAlbum {
  groupId: string;
  members: InboundMessage[];
  cancelTimer: () => void;
}

/**
 * Holds album members until the album is complete: when the next message of the same conversation is not part of it
 * (members arrive back to back, usually in one getUpdates batch) or, for an album that is the chat's last message,
 * after `quietMs` without a new member. The quiet timer restarts with every member; a message of another album or
 * none closes the open album first, so a conversation's order is kept. Conversations do not wait for each other.
 */
export class AlbumCollector {
  private readonly open = new Map<string, OpenAlbum>();

  constructor(private readonly options: AlbumCollectorOptions) {}

  add(message: InboundMessage, mediaGroupId: string | undefined): void {
    const key = message.conversationKey;
    const current = this.open.get(key);
    if (current && current.groupId === mediaGroupId) {
      current.cancelTimer();
      current.members.push(message);
      current.cancelTimer = this.startTimer(key);
      return;
    }
    if (current) this.close(key);
    if (mediaGroupId === undefined) {
      this.options.emit(message);
      return;
    }
    this.open.set(key, { groupId: mediaGroupId, members: [message], cancelTimer: this.startTimer(key) });
  }

  /** Emits every album still open (at shutdown, so no question is lost). */
  flush(): void {
    for (const key of [...this.open.keys()]) this.close(key);
  }

  pendingCount(): number {
    return this.open.size;
  }

  private startTimer(key: string): () => void {
    return this.options.scheduler.schedule(this.options.quietMs, () => this.close(key));
  }

  private close(key: string): void {
    const album = this.open.get(key);
    if (!album) return;
    this.open.delete(key);
    album.cancelTimer();
    this.options.emit(mergeAlbum(album.members));
  }
}
