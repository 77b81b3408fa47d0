import { z } from 'zod';
import { maxQuotedChars, type Attachment, type AttachmentReference, type InboundMessage, type QuotedMessage, type Sender } from './types.js';

// An InboundMessage is plain data except `receivedAt` (JSON turns a Date into an ISO string). A stored message
// (the durable queue, replayed after a crash) comes back through this schema: checked, and its Date restored.

const referenceSchema: z.ZodType<AttachmentReference> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('platform-file'), id: z.string().min(1) }),
  z.object({ kind: z.literal('url'), url: z.url() }),
  z.object({ kind: z.literal('message'), id: z.string().min(1) }),
  z.object({ kind: z.literal('path'), path: z.string().min(1) }),
]);

export const attachmentSchema: z.ZodType<Attachment> = z.object({
  kind: z.enum(['image', 'file']),
  mime: z.string(),
  name: z.string(),
  size: z.number().int().nonnegative(),
  reference: referenceSchema,
});

/** A Date, or the ISO text JSON made of one. */
const dateSchema = z.union([z.date(), z.iso.datetime({ offset: true }).transform((text) => new Date(text))]);

const senderSchema: z.ZodType<Sender> = z.object({ id: z.string(), name: z.string(), isPlatformAdmin: z.boolean() });

const quotedSchema: z.ZodType<QuotedMessage, unknown> = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('known'),
    author: z.string(),
    byBot: z.boolean(),
    text: z.string().max(maxQuotedChars),
    attachments: z.array(attachmentSchema).max(10),
    sentAt: dateSchema.optional(),
  }),
  z.object({ state: z.literal('unknown') }),
]);

export const inboundMessageSchema: z.ZodType<InboundMessage, unknown> = z.object({
  platform: z.enum(['console', 'discord', 'telegram', 'line']),
  conversationKey: z.string().min(1),
  spaceKey: z.string().min(1),
  messageId: z.string().min(1),
  chatKind: z.enum(['direct', 'group']),
  sender: senderSchema,
  text: z.string(),
  mentionsBot: z.boolean(),
  repliesToBot: z.boolean(),
  attachments: z.array(attachmentSchema),
  receivedAt: dateSchema,
  replyToken: z.object({ value: z.string().min(1), expiresAt: dateSchema, quoteToken: z.string().min(1).optional() }).optional(),
  quoted: quotedSchema.optional(),
  unreadable: z.enum(['voice', 'audio', 'video', 'sticker']).optional(),
});

/** A message read back from storage (parsed JSON); throws when it is not one. */
export function parseInboundMessage(stored: unknown): InboundMessage {
  return inboundMessageSchema.parse(stored);
}
