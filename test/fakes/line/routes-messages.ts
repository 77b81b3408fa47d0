import { lineErrors, LineApiError, type ErrorDetail } from './api-error.js';
import { isChatId, isUuid } from './ids.js';
import { quotableTypes, requestRecord, validMessages } from './message-validation.js';
import { ok, type Route } from './router.js';
import type { FakeLineState } from './state.js';

// Sending: reply (a single-use, expiring reply token from a webhook event; free) and push (any time, to a user,
// group or room id; one quota message per recipient; idempotent with X-Line-Retry-Key), plus the quota endpoints.

type SentMessages = { id: string; quoteToken?: string }[];

function deliver(
  state: FakeLineState,
  chatId: string,
  via: 'reply' | 'push',
  body: Record<string, unknown>,
  messages: Record<string, unknown>[],
): SentMessages {
  return messages.map((message) => {
    const id = state.ids.messageId();
    const type = String(message.type);
    const quoteToken = quotableTypes.has(type) ? state.ids.quoteToken() : undefined;
    if (quoteToken) state.quoteTokens.set(quoteToken, id);
    const quoting = typeof message.quoteToken === 'string' ? message.quoteToken : undefined;
    const quotedMessageId = quoting === undefined ? undefined : state.quoteTokens.get(quoting);
    state.sent.push({
      id,
      chatId,
      via,
      type,
      ...(typeof message.text === 'string' ? { text: message.text } : {}),
      ...(quoting === undefined ? {} : { quoting }),
      ...(quotedMessageId === undefined ? {} : { quotedMessageId }),
      ...(quoteToken === undefined ? {} : { quoteToken }),
      notificationDisabled: body.notificationDisabled === true,
      message,
      sentAt: state.clock(),
    });
    return quoteToken === undefined ? { id } : { id, quoteToken };
  });
}

const reply: Route = {
  method: 'POST',
  template: '/v2/bot/message/reply',
  handle: ({ state, body }) => {
    const request = requestRecord(body);
    const token = request.replyToken;
    const missing: ErrorDetail[] = typeof token === 'string' && token !== '' ? [] : [{ message: 'May not be empty', property: 'replyToken' }];
    const messages = validMessages(request, missing);
    const record = state.usableReplyToken(String(token));
    if (!record) throw lineErrors.invalidReplyToken();
    record.used = true;
    return ok({ sentMessages: deliver(state, record.chatId, 'reply', request, messages) });
  },
};

const push: Route = {
  method: 'POST',
  template: '/v2/bot/message/push',
  handle: ({ state, body, call, requestId }) => {
    const request = requestRecord(body);
    const to = request.to;
    const missing: ErrorDetail[] = typeof to === 'string' && to !== '' ? [] : [{ message: 'May not be empty', property: 'to' }];
    const messages = validMessages(request, missing);
    if (!isChatId(String(to))) throw lineErrors.invalidDestination();
    const key = call.retryKey;
    if (key !== undefined) {
      // The fake's wording: LINE documents that a retry key must be a hexadecimal UUID, not its error text.
      if (!isUuid(key)) throw new LineApiError(400, { message: 'The retry key must be a UUID' });
      const accepted = state.acceptedRetryKey(key);
      if (accepted) throw lineErrors.retryKeyAccepted(accepted.requestId, accepted.sentMessages);
    }
    const cost = state.pushCost(String(to));
    if (state.quota !== 'unlimited' && state.quotaUsage + cost > state.quota) throw lineErrors.monthlyLimit();
    const sentMessages = deliver(state, String(to), 'push', request, messages);
    state.quotaUsage += cost;
    if (key !== undefined) state.retryKeys.set(key, { requestId, acceptedAt: state.clock(), sentMessages });
    return ok({ sentMessages });
  },
};

const quota: Route = {
  method: 'GET',
  template: '/v2/bot/message/quota',
  handle: ({ state }) => ok(state.quota === 'unlimited' ? { type: 'none' } : { type: 'limited', value: state.quota }),
};

const consumption: Route = {
  method: 'GET',
  template: '/v2/bot/message/quota/consumption',
  handle: ({ state }) => ok({ totalUsage: state.quotaUsage }),
};

export const messageRoutes: Route[] = [reply, push, quota, consumption];
