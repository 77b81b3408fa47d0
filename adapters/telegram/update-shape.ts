import { z } from 'zod';
import type { Update } from 'telegraf/types';

// The fields of an update the adapter reads (inbound.ts, intake.ts, attachments.ts, addressing.ts), with their
// types. A webhook update with the right secret still gets checked: one the adapter cannot read would fail every
// redelivery, so it is dropped with a log line instead (webhook.ts). Other fields pass untouched.

const user = z.looseObject({ id: z.number(), is_bot: z.boolean().optional(), first_name: z.string().optional() });
const entity = z.looseObject({ type: z.string(), offset: z.number().int(), length: z.number().int(), user: user.optional() });
const chat = z.looseObject({ id: z.number(), type: z.string() });
const photoSize = z.looseObject({ file_id: z.string(), file_unique_id: z.string(), file_size: z.number().optional() });
const fileId = z.looseObject({ file_id: z.string(), file_unique_id: z.string(), file_size: z.number().optional() });

const message = z.looseObject({
  message_id: z.number().int(),
  date: z.number(),
  chat,
  from: user.optional(),
  sender_chat: chat.optional(),
  text: z.string().optional(),
  entities: z.array(entity).optional(),
  caption: z.string().optional(),
  caption_entities: z.array(entity).optional(),
  photo: z.array(photoSize).optional(),
  document: fileId.optional(),
  reply_to_message: z.looseObject({ from: user.optional() }).optional(),
  media_group_id: z.string().optional(),
  migrate_to_chat_id: z.number().optional(),
  migrate_from_chat_id: z.number().optional(),
});

const update = z.looseObject({ update_id: z.number().int(), message: message.optional() });

export type UpdateCheck = { ok: true; update: Update } | { ok: false; updateId: number | undefined; problem: string };

/** The update, or why it cannot be read (the first problem's path, never a value from it). */
export function checkUpdateShape(parsed: unknown): UpdateCheck {
  const result = update.safeParse(parsed);
  if (result.success) return { ok: true, update: parsed as Update };
  const updateId = z.looseObject({ update_id: z.number().int() }).safeParse(parsed);
  const issue = result.error.issues[0];
  return {
    ok: false,
    updateId: updateId.success ? updateId.data.update_id : undefined,
    problem: `${issue?.path.join('.') ?? ''}: ${issue?.code ?? 'invalid'}`,
  };
}
