import type { Telegram } from 'telegraf';

// Bot API 9.x `sendMessageDraft`, which telegraf 4.16 does not know: a private chat's ephemeral preview (about 30 s)
// of a message being written; drafts with the same non-zero `draft_id` are animated into one another. It leaves
// nothing in the chat: the answer itself is then sent with sendMessage. Returns true.

export interface MessageDraft {
  chat_id: number;
  /** Non-zero; the same id animates the same draft. */
  draft_id: number;
  /** 1–4096 characters after entities parsing. */
  text: string;
  parse_mode?: 'HTML';
  message_thread_id?: number;
}

export async function sendMessageDraft(telegram: Telegram, draft: MessageDraft): Promise<true> {
  // telegraf's callApi posts any method name with the payload as JSON; its types list only the methods it knows.
  await telegram.callApi('sendMessageDraft' as never, draft as never);
  return true;
}

/** Largest draft_id kept: a positive 32-bit integer, which every Bot API client library takes. */
const maxDraftId = 2_147_483_647;

/**
 * The draft id of the answer to one inbound message (`<chat>:<message_id>`): its message id, so the same message
 * animates the same draft after a restart; any other shape is hashed. Never 0.
 */
export function draftIdOf(inboundMessageId: string): number {
  const own = /:(\d{1,12})$/.exec(inboundMessageId)?.[1];
  if (own !== undefined && Number(own) > 0) return Number(own) % maxDraftId || 1;
  let hash = 0;
  for (const char of inboundMessageId) hash = (Math.imul(hash, 31) + (char.codePointAt(0) ?? 0)) | 0;
  return Math.abs(hash) % maxDraftId || 1;
}
