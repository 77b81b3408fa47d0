import { randomUUID } from 'node:crypto';
import { HTTPFetchError, messagingApi } from '@line/bot-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { lineGroupId, lineUserId, rateLimited, startFakeLine, userSource, type FakeLine, type FakeLineOptions } from './index.js';

// Sending through the real @line/bot-sdk 11.0.0 MessagingApiClient: reply tokens (single use, expiring), message
// limits, push with X-Line-Retry-Key and the monthly quota, and the SDK's HTTPFetchError for each of LINE's errors.

const somchai = lineUserId('somchai');
const team = lineGroupId('team');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setUp(options: FakeLineOptions = {}): Promise<{ fake: FakeLine; client: messagingApi.MessagingApiClient }> {
  const fake = await startFakeLine(options);
  cleanups.push(() => fake.close());
  return { fake, client: new messagingApi.MessagingApiClient({ channelAccessToken: fake.channelAccessToken, baseURL: fake.url }) };
}

async function fetchError(promise: Promise<unknown>): Promise<HTTPFetchError> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof HTTPFetchError)) throw new Error(`expected an HTTPFetchError, got ${String(error)}`);
  return error;
}

const text = (value: string): messagingApi.TextMessage => ({ type: 'text', text: value });

describe('fake LINE sending under the real @line/bot-sdk', () => {
  it('replies with an event reply token and returns sentMessages ids and quote tokens', async () => {
    const { fake, client } = await setUp();
    const event = fake.textEvent({ source: userSource(somchai), text: 'สวัสดี' });
    const answer = await client.replyMessage({
      replyToken: event.replyToken,
      messages: [{ ...text('สวัสดีครับ'), quoteToken: event.message.quoteToken }, text('มีอะไรให้ช่วยไหม')],
      notificationDisabled: true,
    });
    expect(answer.sentMessages).toHaveLength(2);
    for (const sent of answer.sentMessages) {
      expect(sent.id).toMatch(/^\d{18}$/);
      expect(sent.quoteToken).toEqual(expect.any(String));
    }
    const [first, second] = fake.sentMessages(somchai);
    expect(first).toMatchObject({ id: answer.sentMessages[0]?.id, via: 'reply', type: 'text', text: 'สวัสดีครับ', notificationDisabled: true });
    expect(first?.quoting).toBe(event.message.quoteToken);
    expect(first?.quotedMessageId).toBe(event.message.id);
    expect(second).toMatchObject({ text: 'มีอะไรให้ช่วยไหม', quoteToken: answer.sentMessages[1]?.quoteToken });
    expect(second?.quoting).toBeUndefined();
    expect((await fake.waitForCall('POST /v2/bot/message/reply')).outcome).toMatchObject({ status: 200 });
  });

  it('rejects a second use of a reply token with 400 "Invalid reply token" as an HTTPFetchError', async () => {
    const { fake, client } = await setUp();
    const event = fake.textEvent({ source: userSource(somchai), text: 'hi' });
    await client.replyMessage({ replyToken: event.replyToken, messages: [text('one')] });
    const error = await fetchError(client.replyMessage({ replyToken: event.replyToken, messages: [text('two')] }));
    expect(error.status).toBe(400);
    expect(error.statusText).toBe('Bad Request');
    expect(error.message).toBe('400 - Bad Request');
    expect(error.body).toBe('{"message":"Invalid reply token"}');
    expect(error.headers).toBeInstanceOf(Headers);
    expect(error.headers.get('x-line-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(fake.sentMessages().map((message) => message.text)).toEqual(['one']);
  });

  it('rejects an expired reply token, by the clock or by expireReplyToken', async () => {
    let now = 1_750_000_000_000;
    const { fake, client } = await setUp({ clock: () => now });
    const late = fake.textEvent({ source: userSource(somchai), text: 'late' });
    const expired = fake.textEvent({ source: userSource(somchai), text: 'expired' });
    now += 60_001;
    expect((await fetchError(client.replyMessage({ replyToken: late.replyToken, messages: [text('x')] }))).body).toBe('{"message":"Invalid reply token"}');
    const fresh = fake.textEvent({ source: userSource(somchai), text: 'fresh' });
    fake.expireReplyToken(fresh.replyToken);
    expect((await fetchError(client.replyMessage({ replyToken: fresh.replyToken, messages: [text('x')] }))).status).toBe(400);
    expect((await fetchError(client.replyMessage({ replyToken: expired.replyToken, messages: [text('x')] }))).status).toBe(400);
    expect(fake.sentMessages()).toEqual([]);
  });

  it('allows at most 5 messages and 5,000 characters, and no empty text, keeping the token usable', async () => {
    const { fake, client } = await setUp();
    const event = fake.textEvent({ source: userSource(somchai), text: 'long answer please' });
    const six = await fetchError(
      client.replyMessage({ replyToken: event.replyToken, messages: Array.from({ length: 6 }, (_, index) => text(`part ${index}`)) }),
    );
    expect(six.status).toBe(400);
    expect(JSON.parse(six.body)).toEqual({
      message: 'The request body has 1 error(s)',
      details: [{ message: 'Size must be between 1 and 5', property: 'messages' }],
    });
    const long = await fetchError(client.replyMessage({ replyToken: event.replyToken, messages: [text('ก'.repeat(5001))] }));
    expect(JSON.parse(long.body)).toEqual({
      message: 'The request body has 1 error(s)',
      details: [{ message: 'Length must be between 0 and 5000', property: 'messages[0].text' }],
    });
    const empty = await fetchError(client.replyMessage({ replyToken: event.replyToken, messages: [text('ok'), text('')] }));
    expect(JSON.parse(empty.body)).toMatchObject({ details: [{ message: 'May not be empty', property: 'messages[1].text' }] });
    const exact = await client.replyMessage({ replyToken: event.replyToken, messages: Array.from({ length: 5 }, () => text('ก'.repeat(5000))) });
    expect(exact.sentMessages).toHaveLength(5);
  });

  it('delivers a push with a retry key once; the same key again gets 409 with x-line-accepted-request-id', async () => {
    const { fake, client } = await setUp();
    const retryKey = randomUUID();
    const first = await client.pushMessageWithHttpInfo({ to: somchai, messages: [text('แจ้งเตือน')] }, retryKey);
    const acceptedId = first.httpResponse.headers.get('x-line-request-id');
    const again = await fetchError(client.pushMessage({ to: somchai, messages: [text('แจ้งเตือน')] }, retryKey));
    expect(again.status).toBe(409);
    expect(again.headers.get('x-line-accepted-request-id')).toBe(acceptedId);
    expect(JSON.parse(again.body)).toEqual({ message: 'The retry key is already accepted', sentMessages: first.body.sentMessages });
    expect(fake.sentMessages(somchai)).toHaveLength(1);
    expect(fake.quotaUsage()).toBe(1);
    expect(fake.callsOf('POST /v2/bot/message/push').map((call) => call.retryKey)).toEqual([retryKey, retryKey]);
  });

  it('a push whose answer was lost was still delivered: the retry with its key gets 409, not a duplicate', async () => {
    const { fake, client } = await setUp();
    const retryKey = randomUUID();
    fake.loseResponseNext('POST /v2/bot/message/push');
    await expect(client.pushMessage({ to: somchai, messages: [text('once')] }, retryKey)).rejects.toThrow(TypeError);
    expect((await fetchError(client.pushMessage({ to: somchai, messages: [text('once')] }, retryKey))).status).toBe(409);
    expect(fake.sentMessages(somchai).map((message) => message.text)).toEqual(['once']);
  });

  it('counts pushes per recipient against the monthly quota and answers 429 "monthly limit" when spent', async () => {
    const { fake, client } = await setUp({
      quota: 3,
      groups: [
        {
          groupId: team,
          members: [
            { userId: somchai, displayName: 'สมชาย' },
            { userId: lineUserId('malee'), displayName: 'มาลี' },
          ],
        },
      ],
    });
    await client.pushMessage({ to: team, messages: [text('to two members'), text('second bubble')] });
    expect(await client.getMessageQuotaConsumption()).toEqual({ totalUsage: 2 });
    await client.pushMessage({ to: somchai, messages: [text('third')] });
    const spent = await fetchError(client.pushMessage({ to: somchai, messages: [text('fourth')] }));
    expect(spent.status).toBe(429);
    expect(spent.body).toBe('{"message":"You have reached your monthly limit."}');
    expect(await client.getMessageQuota()).toEqual({ type: 'limited', value: 3 });
    const event = fake.textEvent({ source: userSource(somchai), text: 'replies are free' });
    await client.replyMessage({ replyToken: event.replyToken, messages: [text('still works')] });
    expect(fake.quotaUsage()).toBe(3);
  });

  it('answers a switched rate limit with 429 and LINE text, then works again', async () => {
    const { fake, client } = await setUp();
    fake.failNext('POST /v2/bot/message/push', rateLimited());
    const limited = await fetchError(client.pushMessage({ to: somchai, messages: [text('x')] }));
    expect(limited.status).toBe(429);
    expect(limited.body).toBe('{"message":"The API rate limit has been exceeded. Try again later."}');
    expect(limited.headers.get('retry-after')).toBeNull();
    await client.pushMessage({ to: somchai, messages: [text('x')] });
    expect(fake.quotaUsage()).toBe(1);
  });

  it('rejects a wrong access token with 401 and a push to a malformed id with 400', async () => {
    const { fake, client } = await setUp();
    const stranger = new messagingApi.MessagingApiClient({ channelAccessToken: 'not-the-token', baseURL: fake.url });
    const denied = await fetchError(stranger.getBotInfo());
    expect(denied.status).toBe(401);
    expect(denied.body).toBe('{"message":"Authentication failed. Confirm that the access token in the authorization header is valid."}');
    expect(fake.calls.at(-1)?.auth).toBe('wrong');
    const bare = await fetch(`${fake.url}/v2/bot/info`);
    expect(bare.status).toBe(401);
    expect(await bare.json()).toEqual({ message: "Authorization header required. Must follow the scheme, 'Authorization: Bearer <ACCESS TOKEN>'" });
    const badTarget = await fetchError(client.pushMessage({ to: 'somchai', messages: [text('x')] }));
    expect(badTarget.body).toBe('{"message":"The property, \'to\', in the request body is invalid"}');
  });
});
