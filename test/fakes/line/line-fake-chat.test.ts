import { Readable } from 'node:stream';
import { HTTPFetchError, messagingApi } from '@line/bot-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { internalServerError, lineGroupId, lineRoomId, lineUserId, startFakeLine, userSource, type FakeLine, type FakeLineOptions } from './index.js';

// Chats, people and content through the real SDK clients: the loading animation's rules, bot info, profiles,
// group member names, content downloads through MessagingApiBlobClient, and the switched failures.

const somchai = lineUserId('somchai');
const team = lineGroupId('team');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Clients {
  fake: FakeLine;
  client: messagingApi.MessagingApiClient;
  blob: messagingApi.MessagingApiBlobClient;
}

async function setUp(options: FakeLineOptions = {}): Promise<Clients> {
  const fake = await startFakeLine(options);
  cleanups.push(() => fake.close());
  const config = { channelAccessToken: fake.channelAccessToken, baseURL: fake.url };
  return { fake, client: new messagingApi.MessagingApiClient(config), blob: new messagingApi.MessagingApiBlobClient(config) };
}

async function fetchError(promise: Promise<unknown>): Promise<HTTPFetchError> {
  const error: unknown = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof HTTPFetchError)) throw new Error(`expected an HTTPFetchError, got ${String(error)}`);
  return error;
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('fake LINE chats and content under the real @line/bot-sdk', () => {
  it('shows the loading animation in a 1:1 chat only, for 5–60 seconds in steps of 5', async () => {
    const { fake, client } = await setUp();
    expect(await client.showLoadingAnimation({ chatId: somchai, loadingSeconds: 30 })).toEqual({});
    expect((await fake.waitForCall('POST /v2/bot/chat/loading/start')).outcome).toMatchObject({ status: 202 });
    const group = await fetchError(client.showLoadingAnimation({ chatId: team, loadingSeconds: 5 }));
    expect(group.status).toBe(400);
    expect(JSON.parse(group.body)).toEqual({
      message: 'The request body has 1 error(s)',
      details: [{ message: 'Only user id is acceptable, please confirm if there are any group/room ids or illegal ids.', property: 'chatId' }],
    });
    expect((await fetchError(client.showLoadingAnimation({ chatId: lineRoomId('r'), loadingSeconds: 5 }))).status).toBe(400);
    const odd = await fetchError(client.showLoadingAnimation({ chatId: somchai, loadingSeconds: 61 }));
    expect(JSON.parse(odd.body)).toEqual({
      message: 'The request body has 2 error(s)',
      details: [
        { message: 'Must be between 5 and 60', property: 'loadingSeconds' },
        { message: 'must be a multiple of five', property: 'loadingSeconds' },
      ],
    });
    expect(fake.loadingCalls()).toEqual([{ chatId: somchai, loadingSeconds: 30, at: expect.any(Number) }]);
  });

  it('downloads registered content as a Node Readable with its content type, 404 otherwise', async () => {
    const { fake, blob } = await setUp();
    const photo = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const event = fake.imageEvent({ source: userSource(somchai), content: { bytes: photo, contentType: 'image/jpeg' } });
    const stream = await blob.getMessageContent(event.message.id);
    expect(stream).toBeInstanceOf(Readable);
    expect(await bytesOf(stream)).toEqual(photo);
    const withInfo = await blob.getMessageContentWithHttpInfo(event.message.id);
    expect(withInfo.httpResponse.headers.get('content-type')).toBe('image/jpeg');
    await bytesOf(withInfo.body);
    fake.addContent('123', Buffer.from('%PDF-1.7'), 'application/pdf');
    expect((await bytesOf(await blob.getMessageContent('123'))).toString()).toBe('%PDF-1.7');
    expect(await blob.getMessageContentTranscodingByMessageId('123')).toEqual({ status: 'succeeded' });
    const missing = await fetchError(blob.getMessageContent('999'));
    expect(missing.status).toBe(404);
    expect(missing.body).toBe('{"message":"Not found"}');
  });

  it('answers bot info, profiles and group member names; unknown people are 404', async () => {
    const { client } = await setUp({
      users: [{ userId: somchai, displayName: 'สมชาย', language: 'th' }],
      groups: [{ groupId: team, name: 'ทีมแสง', members: [{ userId: somchai, displayName: 'สมชาย' }] }],
    });
    const info = await client.getBotInfo();
    expect(info).toMatchObject({ basicId: '@123saeng', displayName: 'แสง', chatMode: 'bot', markAsReadMode: 'auto' });
    expect(info.userId).toMatch(/^U[0-9a-f]{32}$/);
    expect(await client.getProfile(somchai)).toEqual({ userId: somchai, displayName: 'สมชาย', language: 'th' });
    expect(await client.getGroupMemberProfile(team, somchai)).toEqual({ userId: somchai, displayName: 'สมชาย' });
    expect(await client.getGroupSummary(team)).toEqual({ groupId: team, groupName: 'ทีมแสง' });
    expect(await client.getGroupMemberCount(team)).toEqual({ count: 1 });
    expect((await fetchError(client.getGroupMemberProfile(team, lineUserId('stranger')))).status).toBe(404);
    expect((await fetchError(client.getProfile(lineUserId('stranger')))).body).toBe('{"message":"Not found"}');
  });

  it('holds a call until released, or marks it disconnected when its client goes away', async () => {
    const { fake, client } = await setUp();
    fake.holdNext('POST /v2/bot/message/push');
    const pushing = client.pushMessage({ to: somchai, messages: [{ type: 'text', text: 'held' }] });
    const held = await fake.waitForCall('POST /v2/bot/message/push');
    expect(held.outcome).toEqual({ held: true });
    expect(fake.sentMessages()).toEqual([]);
    fake.releaseHeld();
    expect((await pushing).sentMessages).toHaveLength(1);
    expect(held.outcome).toMatchObject({ status: 200 });

    fake.holdNext('GET /v2/bot/info');
    const abort = new AbortController();
    const asking = fetch(`${fake.url}/v2/bot/info`, { headers: { authorization: `Bearer ${fake.channelAccessToken}` }, signal: abort.signal });
    const waiting = await fake.waitForCall('GET /v2/bot/info');
    abort.abort();
    await expect(asking).rejects.toThrow();
    const gone = await fake.waitForCall('GET /v2/bot/info', (call) => call.outcome !== undefined && 'disconnected' in call.outcome);
    expect(gone).toBe(waiting);
    expect(gone.outcome).toEqual({ disconnected: true, processed: false });
  });

  it('fails and disconnects on switch, and only the matching calls', async () => {
    const { fake, client } = await setUp();
    fake.failNext('POST /v2/bot/message/push', internalServerError(), 2);
    fake.disconnectNext('GET /v2/bot/message/quota');
    expect((await fetchError(client.pushMessage({ to: somchai, messages: [{ type: 'text', text: 'x' }] }))).status).toBe(500);
    expect(await client.getMessageQuotaConsumption()).toEqual({ totalUsage: 0 });
    await expect(client.getMessageQuota()).rejects.toThrow(TypeError);
    expect((await fetchError(client.pushMessage({ to: somchai, messages: [{ type: 'text', text: 'x' }] }))).status).toBe(500);
    await client.pushMessage({ to: somchai, messages: [{ type: 'text', text: 'x' }] });
    expect(await client.getMessageQuota()).toEqual({ type: 'limited', value: 200 });
    expect(fake.callsOf('GET /v2/bot/message/quota').map((call) => call.outcome)).toEqual([
      { disconnected: true, processed: false },
      { status: 200, body: { type: 'limited', value: 200 } },
    ]);
  });
});
