import { z } from 'zod';
import type { InboundHandler } from '../../src/shared/channel.js';
import { cutAtGrapheme } from '../../src/shared/grapheme-cut.js';
import type { Attachment, QuotedMessage } from '../../src/shared/types.js';

// What a LINE quote leaves out (docs/architecture.md, "Quoted messages"): a message that replies to another carries
// only `quotedMessageId`. The bot sees every message of its groups and sends its own, so it keeps each for a while —
// who wrote it, its text, its image or file — under its chat's id, and looks a quoted id up there: a message of
// another chat (another space) is never found. Kept in the adapters' shared record store (every bot process sees
// it), bounded per message and forgotten after `storeTtlSeconds`; a quote older than that is `unknown`.

/** How long a message can still be quoted with its content known. */
export const storeTtlSeconds = 3 * 24 * 3600;
/** How much of a message's text is kept. */
export const maxStoredChars = 2_000;

export interface SeenLineMessage {
  author: string;
  byBot: boolean;
  text: string;
  /** An image or a file the message carried (LINE: one at most), as the adapter normalized it. */
  attachment?: Attachment;
  sentAt: number;
}

const storedSchema = z.object({
  author: z.string().max(200),
  byBot: z.boolean(),
  text: z.string().max(maxStoredChars),
  attachment: z
    .object({
      kind: z.enum(['image', 'file']),
      mime: z.string().max(200),
      name: z.string().max(500),
      size: z.number().int().nonnegative(),
      reference: z.object({ kind: z.literal('message'), id: z.string().min(1).max(100) }),
    })
    .optional(),
  sentAt: z.number(),
});

const keyOf = (chatId: string, messageId: string) => `line-message:${chatId}:${messageId}`;

export class LineMessageStore {
  constructor(private readonly records: Pick<InboundHandler, 'rememberRecord' | 'readRecord'>) {}

  async remember(chatId: string, messageId: string, seen: SeenLineMessage): Promise<void> {
    const stored = { ...seen, author: seen.author.slice(0, 200), text: cutAtGrapheme(seen.text, maxStoredChars) };
    await this.records.rememberRecord(keyOf(chatId, messageId), storeTtlSeconds, JSON.stringify(stored));
  }

  /** The quoted message as the turn reads it; `unknown` when it is not (or no longer) in this chat's store. */
  async quoted(chatId: string, messageId: string): Promise<QuotedMessage> {
    const raw = await this.records.readRecord(keyOf(chatId, messageId)).catch(() => undefined);
    let parsed: z.infer<typeof storedSchema> | undefined;
    try {
      // What this class wrote is far shorter; anything longer is not read.
      parsed = raw === undefined || raw.length > 4 * maxStoredChars + 2_000 ? undefined : storedSchema.parse(JSON.parse(raw));
    } catch {
      parsed = undefined;
    }
    if (!parsed) return { state: 'unknown' };
    return {
      state: 'known',
      author: parsed.author,
      byBot: parsed.byBot,
      text: parsed.text,
      attachments: parsed.attachment ? [parsed.attachment] : [],
      sentAt: new Date(parsed.sentAt),
    };
  }
}
