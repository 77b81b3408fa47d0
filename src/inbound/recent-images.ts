import type { Keyv } from 'keyv';
import type { Attachment, AttachmentReference, InboundMessage } from '../shared/types.js';
import { PerKeyChain } from '../shared/per-key-chain.js';

// "Image then mention": a user sends a photo without addressing the bot, then asks about it. The photo is remembered
// by reference (never bytes) for a short window and joins that same user's next addressed message in the same
// conversation, exactly once.

/** The newest images kept per sender and conversation; matches what one turn sends the model (load-images.ts). */
export const defaultMaxRememberedImages = 4;

export interface RecentImagesOptions {
  /** A keyv namespace shared by every bot process (the `cache` one); keys start with `recent-images:`. */
  store: Keyv;
  /** IMAGE_CONTEXT_SECONDS; 0 turns the feature off. */
  windowSeconds: number;
  now: () => Date;
  maxImages?: number;
}

interface RememberedImage {
  /** Epoch milliseconds of the injected clock. */
  rememberedAt: number;
  attachment: Attachment;
}

export class RecentImages {
  // Read-modify-write on keyv is not atomic: one chain per key keeps two messages of one process from losing an entry.
  private readonly chain = new PerKeyChain();
  private readonly windowMs: number;
  private readonly maxImages: number;

  constructor(private readonly options: RecentImagesOptions) {
    this.windowMs = Math.max(0, options.windowSeconds) * 1000;
    this.maxImages = Math.max(1, options.maxImages ?? defaultMaxRememberedImages);
  }

  /** For a message that did not address the bot: keeps its images (in order), the newest `maxImages` per sender. */
  async remember(message: InboundMessage): Promise<void> {
    const images = message.attachments.filter((attachment) => attachment.kind === 'image');
    if (this.windowMs === 0 || images.length === 0) return;
    const key = storeKey(message);
    await this.chain.run(key, async () => {
      const now = this.options.now().getTime();
      const kept = (await this.load(key, now)).filter((entry) => !images.some((image) => sameReference(image, entry.attachment)));
      const added = images.map((attachment) => ({ rememberedAt: now, attachment }));
      const entries: RememberedImage[] = [...kept, ...added].slice(-this.maxImages);
      // The TTL only clears storage; the window itself is checked against the injected clock on every read.
      await this.options.store.set(key, entries, this.windowMs);
    });
  }

  /**
   * For a message that addressed the bot: its own attachments, then the images the same sender sent in the same
   * conversation within the window (oldest first, none twice). Those images are forgotten, so they join one message.
   */
  async takeFor(message: InboundMessage): Promise<Attachment[]> {
    if (this.windowMs === 0) return [...message.attachments];
    const key = storeKey(message);
    const remembered = await this.chain.run(key, async () => {
      const stored = await this.options.store.get<RememberedImage[]>(key);
      if (stored === undefined) return [];
      await this.options.store.delete(key);
      return this.young(stored, this.options.now().getTime()).map((entry) => entry.attachment);
    });
    const merged = [...message.attachments];
    for (const attachment of remembered) {
      if (!merged.some((present) => sameReference(present, attachment))) merged.push(attachment);
    }
    return merged;
  }

  private async load(key: string, now: number): Promise<RememberedImage[]> {
    return this.young(await this.options.store.get<RememberedImage[]>(key), now);
  }

  private young(stored: RememberedImage[] | undefined, now: number): RememberedImage[] {
    if (!Array.isArray(stored)) return [];
    return stored.filter((entry) => typeof entry.rememberedAt === 'number' && now - entry.rememberedAt < this.windowMs);
  }
}

// The sender id is encoded, so no conversation key and sender id pair can spell another pair's key.
function storeKey(message: InboundMessage): string {
  return `recent-images:${message.conversationKey}#${encodeURIComponent(message.sender.id)}`;
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
