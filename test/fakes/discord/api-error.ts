// Discord's error responses as the API writes them: the HTTP status, a JSON body `{ code, message, errors? }`, and for
// a 429 `{ message, retry_after, global }` with the rate-limit headers. A route handler throws DiscordHttpError; a
// switched failure (failNext) is a FailureResponse written as it is.

export interface DiscordErrorBody {
  code: number;
  message: string;
  errors?: Record<string, unknown>;
}

export interface FailureResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export class DiscordHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: DiscordErrorBody,
  ) {
    super(body.message);
  }
}

/** A field error inside 50035 "Invalid Form Body"; `path` nests, e.g. ['message_reference'] or ['0', 'name']. */
export function invalidFormBody(path: string[], code: string, message: string): DiscordHttpError {
  let errors: Record<string, unknown> = { _errors: [{ code, message }] };
  for (const key of [...path].reverse()) errors = { [key]: errors };
  return new DiscordHttpError(400, { code: 50035, message: 'Invalid Form Body', errors });
}

export const discordErrors = {
  unauthorized: () => new DiscordHttpError(401, { code: 0, message: '401: Unauthorized' }),
  notFound: () => new DiscordHttpError(404, { code: 0, message: '404: Not Found' }),
  methodNotAllowed: () => new DiscordHttpError(405, { code: 0, message: '405: Method Not Allowed' }),
  unknownChannel: () => new DiscordHttpError(404, { code: 10003, message: 'Unknown Channel' }),
  unknownGuild: () => new DiscordHttpError(404, { code: 10004, message: 'Unknown Guild' }),
  unknownMember: () => new DiscordHttpError(404, { code: 10007, message: 'Unknown Member' }),
  unknownMessage: () => new DiscordHttpError(404, { code: 10008, message: 'Unknown Message' }),
  unknownUser: () => new DiscordHttpError(404, { code: 10013, message: 'Unknown User' }),
  unknownWebhook: () => new DiscordHttpError(404, { code: 10015, message: 'Unknown Webhook' }),
  unknownInteraction: () => new DiscordHttpError(404, { code: 10062, message: 'Unknown interaction' }),
  missingAccess: () => new DiscordHttpError(403, { code: 50001, message: 'Missing Access' }),
  cannotEditOthers: () => new DiscordHttpError(403, { code: 50005, message: 'Cannot edit a message authored by another user' }),
  emptyMessage: () => new DiscordHttpError(400, { code: 50006, message: 'Cannot send an empty message' }),
  invalidWebhookToken: () => new DiscordHttpError(401, { code: 50027, message: 'Invalid Webhook Token' }),
  invalidJson: () => new DiscordHttpError(400, { code: 50109, message: 'The request body contains invalid JSON.' }),
  alreadyAcknowledged: () => new DiscordHttpError(400, { code: 40060, message: 'Interaction has already been acknowledged' }),
  entityTooLarge: () => new DiscordHttpError(413, { code: 40005, message: 'Request entity too large' }),
  tooLong: (field: string, max: number) => invalidFormBody([field], 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`),
  unknownReference: () => invalidFormBody(['message_reference'], 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', 'Unknown message'),
};

export interface RateLimitOptions {
  /** Seconds, as Discord's body gives it (a float). Default 0.05, so a retrying client is fast. */
  retryAfter?: number;
  global?: boolean;
  scope?: 'user' | 'global' | 'shared';
}

/**
 * A 429 as Discord sends it (developers/topics/rate-limits.mdx): body `{ message, retry_after, global }`,
 * `Retry-After` in whole seconds (rounded up), and for a route limit the bucket headers with Remaining 0 (the
 * server adds X-RateLimit-Bucket and X-RateLimit-Reset of the called route when they are missing).
 */
export function rateLimited(options: RateLimitOptions = {}): FailureResponse {
  const retryAfter = options.retryAfter ?? 0.05;
  const global = options.global ?? false;
  const scope = options.scope ?? (global ? 'global' : 'user');
  const body = { message: scope === 'shared' ? 'The resource is being rate limited.' : 'You are being rate limited.', retry_after: retryAfter, global };
  const headers: Record<string, string> = { 'Retry-After': String(Math.ceil(retryAfter)), 'X-RateLimit-Scope': scope };
  if (global) return { status: 429, body, headers: { ...headers, 'X-RateLimit-Global': 'true' } };
  return {
    status: 429,
    body,
    headers: { ...headers, 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset-After': retryAfter.toFixed(3) },
  };
}
