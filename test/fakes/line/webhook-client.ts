import { createHmac } from 'node:crypto';

// LINE's side of a webhook delivery: the raw JSON body, signed as the platform signs it — `x-line-signature` is the
// base64 HMAC-SHA256 of the exact bytes under the channel secret — and POSTed to the bot's loopback endpoint with
// LINE's headers. Negative tests pass another secret, a signature of their own, or `signature: null` for none.

export interface PostWebhookOptions {
  /** Sign with this secret instead of the channel's. */
  secret?: string;
  /** Send this header value as it is; `null` sends no signature header. */
  signature?: string | null;
  /** Extra or overriding request headers. */
  headers?: Record<string, string>;
  /** Gives up on the bot (LINE's own deliveries wait 2 s). */
  signal?: AbortSignal;
}

export interface WebhookAnswer {
  status: number;
  body: string;
  headers: Headers;
  /** The exact bytes sent. */
  rawBody: string;
  signature?: string;
}

export function signBody(rawBody: string | Buffer, channelSecret: string): string {
  return createHmac('sha256', channelSecret).update(rawBody).digest('base64');
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** POSTs a webhook body (an object, or a string sent byte for byte) to a loopback URL. */
export async function postSignedWebhook(url: string, body: unknown, channelSecret: string, options: PostWebhookOptions = {}): Promise<WebhookAnswer> {
  const target = new URL(url);
  if (!loopbackHosts.has(target.hostname)) throw new Error(`webhooks go to loopback only, not ${target.hostname}`);
  const rawBody = typeof body === 'string' ? body : JSON.stringify(body);
  const signature = options.signature === undefined ? signBody(rawBody, options.secret ?? channelSecret) : (options.signature ?? undefined);
  const response = await fetch(target, {
    method: 'POST',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'LineBotWebhook/2.0',
      ...(signature === undefined ? {} : { 'x-line-signature': signature }),
      ...options.headers,
    },
    body: rawBody,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { status: response.status, body: await response.text(), headers: response.headers, rawBody, ...(signature === undefined ? {} : { signature }) };
}
