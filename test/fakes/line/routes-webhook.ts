import { requestBodyErrors } from './api-error.js';
import { requestRecord } from './message-validation.js';
import { ok, type Route, type RouteContext, type RouteResult } from './router.js';
import { postSignedWebhook } from './webhook-client.js';

// The channel's webhook settings as the Messaging API shows them: GET /v2/bot/channel/webhook/endpoint answers
// `{ endpoint, active }` (the URL on file and whether "Use webhook" is on), and POST /v2/bot/channel/webhook/test
// (body `{ endpoint? }`, default the URL on file) really delivers a signed `{ destination, events: [] }` and answers
// `{ success, timestamp, statusCode, reason, detail }`: reason OK / ERROR_STATUS_CODE with the status as detail, or
// statusCode 0 with COULD_NOT_CONNECT / REQUEST_TIMEOUT when no answer came (the reference: "If the webhook response
// isn't received, the status code is set to zero or a negative number"). The fake delivers to loopback only; any
// other host is COULD_NOT_CONNECT. With no URL on file and none given, the fake answers 400 (its wording).

export interface WebhookSettings {
  endpoint: string;
  active: boolean;
  /** How long the test delivery waits for the bot (LINE: 2 s for a webhook). */
  testTimeoutMs: number;
}

const getEndpoint: Route = {
  method: 'GET',
  template: '/v2/bot/channel/webhook/endpoint',
  handle: ({ state }) => ok({ endpoint: state.webhook.endpoint, active: state.webhook.active }),
};

function verdict(context: RouteContext, statusCode: number, reason: string, detail: string): RouteResult {
  const success = reason === 'OK';
  return ok({ success, timestamp: new Date(context.state.clock()).toISOString(), statusCode, reason, detail });
}

async function deliverTest(context: RouteContext): Promise<RouteResult> {
  const given = requestRecord(context.body).endpoint;
  if (given !== undefined && typeof given !== 'string') throw requestBodyErrors([{ message: 'must be a string', property: 'endpoint' }]);
  const endpoint = given ?? context.state.webhook.endpoint;
  if (endpoint === '') throw requestBodyErrors([{ message: 'The webhook URL is not set', property: 'endpoint' }]);
  const body = { destination: context.state.bot.userId, events: [] };
  try {
    const answer = await postSignedWebhook(endpoint, body, context.channelSecret, { signal: AbortSignal.timeout(context.state.webhook.testTimeoutMs) });
    const fine = answer.status >= 200 && answer.status < 300;
    return verdict(context, answer.status, fine ? 'OK' : 'ERROR_STATUS_CODE', String(answer.status));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError') return verdict(context, 0, 'REQUEST_TIMEOUT', 'Request timeout');
    return verdict(context, 0, 'COULD_NOT_CONNECT', `Connection failed: ${endpoint}`);
  }
}

const testEndpoint: Route = { method: 'POST', template: '/v2/bot/channel/webhook/test', handle: deliverTest };

export const webhookRoutes: readonly Route[] = [getEndpoint, testEndpoint];
