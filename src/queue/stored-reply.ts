import { z } from 'zod';
import type { Reply } from '../shared/types.js';

// A reply as the queue stores it (JSON), read back after a restart by either backend.

const replySchema: z.ZodType<Reply> = z.object({
  text: z.string(),
  files: z.array(
    z.object({ name: z.string(), path: z.string(), mime: z.string(), size: z.number(), link: z.object({ url: z.string(), expiresAt: z.string() }).optional() }),
  ),
  replyTo: z.string().optional(),
});

export function parseStoredReply(body: string): Reply {
  return replySchema.parse(JSON.parse(body));
}
