import { TelegramError } from 'telegraf';

// What went wrong with one Bot API call, as the delivery acts on it (docs/platforms.md §2.5): telegraf retries 429 only
// in its polling loop, so every send sees the TelegramError itself; a lost connection is node-fetch's FetchError.

export type SendProblem =
  | { kind: 'rate-limited'; retryAfterSeconds: number }
  /** Connection lost or refused, a timeout, or a 5xx: worth another try. */
  | { kind: 'network' }
  /** 403: blocked by the user, kicked from the group, or not allowed to post. */
  | { kind: 'blocked'; description: string }
  /** 400 "can't parse entities": the markup was wrong; the words can still go out as plain text. */
  | { kind: 'unparsable' }
  /** 400 "message is not modified": an edit to the same text, which is no failure. */
  | { kind: 'not-modified' }
  /** 400 "group chat was upgraded to a supergroup chat": the same group under a new id. */
  | { kind: 'migrated'; newChatId: number }
  /** 400 "message to edit not found": the user deleted the message being edited. */
  | { kind: 'message-gone' }
  | { kind: 'rejected'; code: number; description: string }
  /** Not a Bot API or connection failure: a bug, passed on as it is. */
  | { kind: 'unexpected' };

function isConnectionFailure(error: unknown): boolean {
  return error instanceof Error && (error.name === 'FetchError' || error.name === 'AbortError');
}

export function classifySendError(error: unknown): SendProblem {
  if (!(error instanceof TelegramError)) return isConnectionFailure(error) ? { kind: 'network' } : { kind: 'unexpected' };
  const description = error.description;
  if (error.code === 429) return { kind: 'rate-limited', retryAfterSeconds: error.parameters?.retry_after ?? 1 };
  if (error.code >= 500) return { kind: 'network' };
  if (error.code === 403) return { kind: 'blocked', description };
  const newChatId = error.parameters?.migrate_to_chat_id;
  if (error.code === 400 && newChatId !== undefined) return { kind: 'migrated', newChatId };
  const lower = description.toLowerCase();
  if (error.code === 400 && lower.includes("can't parse entities")) return { kind: 'unparsable' };
  if (error.code === 400 && lower.includes('message is not modified')) return { kind: 'not-modified' };
  if (error.code === 400 && lower.includes('message to edit not found')) return { kind: 'message-gone' };
  return { kind: 'rejected', code: error.code, description };
}
