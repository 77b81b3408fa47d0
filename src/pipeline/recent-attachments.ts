import type { Keyv } from 'keyv';
import { z } from 'zod';
import { attachmentSchema } from '../shared/inbound-message-schema.js';
import type { Attachment, AttachmentReference, InboundMessage } from '../shared/types.js';
import { PerKeyChain } from '../shared/per-key-chain.js';
import type { RedisLists } from '../storage/redis-storage.js';
import { RedisEntryList } from '../storage/redis-entry-list.js';

// "Image then mention", and "file then /kb add": a user sends a photo or a file without addressing the bot (on LINE
// every image and file is a message of its own), then asks about it or adds it. What they sent is remembered by
// reference (never bytes) for a short window and joins that same user's next addressed message in the same
// conversation, exactly once: images a question, files a command.
//
// With REDIS_URL several bot processes may handle one chat at once (why: group-context.ts). The attachments are
// then two Redis lists per sender and chat, one per kind, appended and taken in one MULTI each
// (src/storage/redis-entry-list.ts), so none is lost or taken twice; `maxRemembered` then bounds each kind.

/** The newest attachments kept per sender and conversation (a turn sends the model four images: load-images.ts). */
export const defaultMaxRemembered = 8;

export interface RecentAttachmentsOptions {
  /** A keyv namespace shared by every bot process (the `cache` one); keys start with `recent-attachments:`. */
  store: Keyv;
  /** When set (REDIS_URL), Redis lists instead of the keyv value: see above. */
  redis?: RedisLists | undefined;
  /** IMAGE_CONTEXT_SECONDS; 0 turns the feature off. */
  windowSeconds: number;
  now: () => Date;
  maxRemembered?: number;
}

interface Remembered {
  /** Epoch milliseconds of the injected clock. */
  rememberedAt: number;
  attachment: Attachment;
}

const rememberedSchema: z.ZodType<Remembered> = z.object({ rememberedAt: z.number(), attachment: attachmentSchema });
const kinds: readonly Attachment['kind'][] = ['image', 'file'];

export class RecentAttachments {
  // Read-modify-write on keyv is not atomic: one chain per key keeps two messages of one process from losing an entry.
  private readonly chain = new PerKeyChain();
  private readonly windowMs: number;
  private readonly maxRemembered: number;
  private readonly list: RedisEntryList<Remembered> | undefined;

  constructor(private readonly options: RecentAttachmentsOptions) {
    this.windowMs = Math.max(0, options.windowSeconds) * 1000;
    this.maxRemembered = Math.max(1, options.maxRemembered ?? defaultMaxRemembered);
    if (options.redis) this.list = new RedisEntryList(options.redis, (stored) => rememberedSchema.safeParse(stored).data);
  }

  /** For a message that did not address the bot: keeps its attachments (in order), the newest few per sender. */
  async remember(message: InboundMessage): Promise<void> {
    const attachments = message.attachments;
    if (this.windowMs === 0 || attachments.length === 0) return;
    const key = storeKey(message);
    if (this.list) {
      const list = this.list;
      const rememberedAt = this.options.now().getTime();
      const bounds = { keep: this.maxRemembered, ttlMs: this.windowMs };
      const byKind = (kind: Attachment['kind']) =>
        attachments.filter((attachment) => attachment.kind === kind).map((attachment) => ({ rememberedAt, attachment }));
      await Promise.all(kinds.map((kind) => list.append(kindKey(key, kind), byKind(kind), bounds)));
      return;
    }
    await this.chain.run(key, async () => {
      const now = this.options.now().getTime();
      const kept = (await this.load(key, now)).filter((entry) => !attachments.some((attachment) => sameReference(attachment, entry.attachment)));
      const added = attachments.map((attachment) => ({ rememberedAt: now, attachment }));
      const entries: Remembered[] = [...kept, ...added].slice(-this.maxRemembered);
      // The TTL only clears storage; the window itself is checked against the injected clock on every read.
      await this.options.store.set(key, entries, this.windowMs);
    });
  }

  /**
   * For a message that addressed the bot: its own attachments of `kind`, then those the same sender sent in the same
   * conversation within the window (oldest first, none twice). The ones taken are forgotten, so they join one
   * message; the other kind stays for what it is for.
   */
  async takeFor(message: InboundMessage, kind: Attachment['kind']): Promise<Attachment[]> {
    const own = message.attachments.filter((attachment) => attachment.kind === kind);
    if (this.windowMs === 0) return own;
    const key = storeKey(message);
    const remembered = this.list ? await this.takeShared(key, kind) : await this.takeLocal(key, kind);
    const merged = [...own];
    for (const attachment of remembered) {
      if (!merged.some((present) => sameReference(present, attachment))) merged.push(attachment);
    }
    return merged;
  }

  /** The keyv value, under the in-process chain: the young entries of `kind`; the other kind is written back. */
  private takeLocal(key: string, kind: Attachment['kind']): Promise<Attachment[]> {
    return this.chain.run(key, async () => {
      const now = this.options.now().getTime();
      const stored = await this.options.store.get<Remembered[]>(key);
      if (stored === undefined) return [];
      const young = this.young(stored, now);
      const left = young.filter((entry) => entry.attachment.kind !== kind);
      if (left.length === 0) await this.options.store.delete(key);
      else await this.options.store.set(key, left, this.windowMs);
      return young.filter((entry) => entry.attachment.kind === kind).map((entry) => entry.attachment);
    });
  }

  /** The kind's Redis list, taken whole: the young entries, each reference once at its latest place. */
  private async takeShared(key: string, kind: Attachment['kind']): Promise<Attachment[]> {
    const young = this.young(await this.list?.take(kindKey(key, kind)), this.options.now().getTime());
    const attachments = young.map((entry) => entry.attachment);
    return attachments.filter((attachment, index) => !attachments.slice(index + 1).some((later) => sameReference(later, attachment)));
  }

  private async load(key: string, now: number): Promise<Remembered[]> {
    return this.young(await this.options.store.get<Remembered[]>(key), now);
  }

  private young(stored: Remembered[] | undefined, now: number): Remembered[] {
    if (!Array.isArray(stored)) return [];
    return stored.filter((entry) => typeof entry.rememberedAt === 'number' && now - entry.rememberedAt < this.windowMs);
  }
}

// The sender id is encoded, so no conversation key and sender id pair can spell another pair's key.
function storeKey(message: InboundMessage): string {
  return `recent-attachments:${message.conversationKey}#${encodeURIComponent(message.sender.id)}`;
}

// The encoded sender id has no ':', so the kind cannot be confused with a part of it.
function kindKey(key: string, kind: Attachment['kind']): string {
  return `${key}:${kind}`;
}

function sameReference(first: Attachment, second: Attachment): boolean {
  return referenceIdentity(first.reference) === referenceIdentity(second.reference);
}

function referenceIdentity(reference: AttachmentReference): string {
  switch (reference.kind) {
    case 'platform-file':
    case 'message':
      return `${reference.kind}:${reference.id}`;
    case 'url':
      return `url:${reference.url}`;
    case 'path':
      return `path:${reference.path}`;
  }
}
