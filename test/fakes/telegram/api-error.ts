import type { ResponseParameters } from 'telegraf/types';

// A Bot API failure, thrown by a method and written as `{ ok: false, error_code, description, parameters? }` with
// the HTTP status equal to error_code, as api.telegram.org does.

export interface ApiErrorBody {
  error_code: number;
  description: string;
  parameters?: ResponseParameters;
}

export class BotApiError extends Error {
  constructor(readonly body: ApiErrorBody) {
    super(body.description);
  }
}

export function badRequest(detail: string): BotApiError {
  return new BotApiError({ error_code: 400, description: `Bad Request: ${detail}` });
}

/** The 429 body Telegram sends when a flood limit is hit. */
export function tooManyRequests(retryAfterSeconds: number): ApiErrorBody {
  return { error_code: 429, description: `Too Many Requests: retry after ${retryAfterSeconds}`, parameters: { retry_after: retryAfterSeconds } };
}

/** The 403 of a private chat whose user blocked the bot. */
export function botBlockedByUser(): ApiErrorBody {
  return { error_code: 403, description: 'Forbidden: bot was blocked by the user' };
}
