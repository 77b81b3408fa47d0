import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messagingApi, middleware, SignatureValidationFailed, validateSignature, type webhook } from '@line/bot-sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { groupSource, lineGroupId, lineUserId, roomSource, lineRoomId, startFakeLine, userSource, type FakeLine } from './index.js';

// LINE's side of webhooks: event shapes as LINE sends them, signatures the SDK's validateSignature and middleware
// accept (and reject when wrong), redelivery, and reply tokens that reach the fake's reply endpoint.

const somchai = lineUserId('somchai');
const team = lineGroupId('team');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A minimal bot endpoint behind the SDK's own middleware: 200 with the parsed body, 401 on a bad signature. */
async function botEndpoint(channelSecret: string): Promise<{ url: string; received: webhook.CallbackRequest[] }> {
  const received: webhook.CallbackRequest[] = [];
  const check = middleware({ channelSecret });
  const server: Server = createServer((request, response) => {
    void check(request as Parameters<typeof check>[0], response as Parameters<typeof check>[1], (error?: unknown) => {
      if (error) return void response.writeHead(error instanceof SignatureValidationFailed ? 401 : 400).end(String(error));
      received.push((request as unknown as { body: webhook.CallbackRequest }).body);
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`, received };
}

async function setUp(): Promise<FakeLine> {
  const fake = await startFakeLine();
  cleanups.push(() => fake.close());
  return fake;
}

describe('fake LINE webhooks', () => {
  it('builds a text event with UTF-16 mentions (isSelf for the bot, type all), a quote token and a reply token', async () => {
    const fake = await setUp();
    const text = '😀 @แสง ช่วยด้วย @All';
    const event = fake.textEvent({
      source: groupSource(team, somchai),
      text,
      mentions: [
        { match: '@แสง', kind: 'self' },
        { match: '@All', kind: 'all' },
      ],
      quotedMessageId: '510000000000000001',
    });
    expect(event).toMatchObject({
      type: 'message',
      mode: 'active',
      deliveryContext: { isRedelivery: false },
      source: { type: 'group', groupId: team, userId: somchai },
    });
    expect(event.webhookEventId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(event.replyToken).toMatch(/^[0-9a-f]{32}$/);
    expect(event.message.quoteToken.length).toBeGreaterThan(20);
    expect(event.message.quotedMessageId).toBe('510000000000000001');
    expect(event.message.mention?.mentionees).toEqual([
      { index: 3, length: 4, type: 'user', userId: fake.botUserId, isSelf: true },
      { index: 17, length: 4, type: 'all' },
    ]);
    expect(text.slice(3, 7)).toBe('@แสง');
    expect(text.slice(17, 21)).toBe('@All');
    expect(fake.replyToken(event.replyToken)).toMatchObject({ chatId: team, used: false });
    expect(groupSource(team)).toEqual({ type: 'group', groupId: team });
  });

  it('builds image (line and external, image sets), file, sticker, join and memberJoined events', async () => {
    const fake = await setUp();
    const image = fake.imageEvent({ source: userSource(somchai), content: { bytes: Buffer.from('jpg') }, imageSet: { id: 'set1', index: 1, total: 2 } });
    expect(image.message).toMatchObject({ type: 'image', contentProvider: { type: 'line' }, imageSet: { id: 'set1', index: 1, total: 2 } });
    const external = fake.imageEvent({ source: userSource(somchai), external: { originalContentUrl: 'https://example.com/a.jpg' } });
    expect(external.message.contentProvider).toEqual({ type: 'external', originalContentUrl: 'https://example.com/a.jpg' });
    const file = fake.fileEvent({ source: userSource(somchai), fileName: 'คู่มือ.pdf', bytes: Buffer.from('%PDF') });
    expect(file.message).toMatchObject({ type: 'file', fileName: 'คู่มือ.pdf', fileSize: 4 });
    expect(fake.stickerEvent({ source: roomSource(lineRoomId('r')) }).message).toMatchObject({ type: 'sticker', stickerResourceType: 'STATIC' });
    expect(fake.joinEvent(groupSource(team))).toMatchObject({ type: 'join', replyToken: expect.any(String) });
    const joined = fake.memberJoinedEvent(groupSource(team), [somchai]);
    expect(joined.joined.members).toEqual([{ type: 'user', userId: somchai }]);
    const blob = new messagingApi.MessagingApiBlobClient({ channelAccessToken: fake.channelAccessToken, baseURL: fake.url });
    const chunks: Buffer[] = [];
    for await (const chunk of await blob.getMessageContent(file.message.id)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('%PDF');
  });

  it('signs as LINE does: validateSignature and the SDK middleware accept it, a wrong or missing signature is 401', async () => {
    const fake = await setUp();
    const bot = await botEndpoint(fake.channelSecret);
    const body = fake.webhookBody(fake.textEvent({ source: userSource(somchai), text: 'สวัสดี' }));
    const good = await fake.postWebhook(bot.url, body);
    expect(good.status).toBe(200);
    expect(validateSignature(good.rawBody, fake.channelSecret, good.signature ?? '')).toBe(true);
    expect(validateSignature(good.rawBody, 'another-secret', good.signature ?? '')).toBe(false);
    expect(bot.received).toEqual([JSON.parse(good.rawBody)]);
    expect(bot.received[0]?.destination).toBe(fake.botUserId);
    const wrong = await fake.postWebhook(bot.url, body, { secret: 'another-secret' });
    expect(wrong.status).toBe(401);
    expect(validateSignature(wrong.rawBody, fake.channelSecret, wrong.signature ?? '')).toBe(false);
    expect((await fake.postWebhook(bot.url, body, { signature: null })).status).toBe(401);
    expect(bot.received).toHaveLength(1);
    await expect(fake.postWebhook('http://192.0.2.1/webhook', body)).rejects.toThrow(/loopback/);
  });

  it('redelivers with the same webhookEventId and reply token; a token used before stays used', async () => {
    let now = 1_750_000_000_000;
    const fake = await startFakeLine({ clock: () => now });
    cleanups.push(() => fake.close());
    const client = new messagingApi.MessagingApiClient({ channelAccessToken: fake.channelAccessToken, baseURL: fake.url });
    const event = fake.textEvent({ source: userSource(somchai), text: 'ถามหน่อย' });
    now += 90_000;
    const again = fake.redeliver(event);
    expect(again).toEqual({ ...event, deliveryContext: { isRedelivery: true } });
    await client.replyMessage({ replyToken: again.replyToken, messages: [{ type: 'text', text: 'ตอบ' }] });
    const used = fake.textEvent({ source: userSource(somchai), text: 'อีกข้อ' });
    await client.replyMessage({ replyToken: used.replyToken, messages: [{ type: 'text', text: 'ตอบ' }] });
    fake.redeliver(used);
    await expect(client.replyMessage({ replyToken: used.replyToken, messages: [{ type: 'text', text: 'ซ้ำ' }] })).rejects.toMatchObject({ status: 400 });
    expect(fake.sentMessages(somchai)).toHaveLength(2);
  });
});
