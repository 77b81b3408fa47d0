import { DiscordAPIError, Events, RateLimitError, REST, Routes, type ResponseLike } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { discordUser, rateLimited } from './index.js';
import { createHarnessFactory, nextEvent } from './test-client.js';

// Edits as Discord checks them, under real @discordjs/rest: a channel message and a slash command's @original
// (content at most 2,000 characters, a deleted or unknown message 404 10008), each recorded in the call log, and a
// 429 switched on for the next edits with Discord's body and headers.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const setUp = createHarnessFactory(cleanups);
const somchai = discordUser('somchai');

const errorOf = (promise: Promise<unknown>): Promise<unknown> =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('fake Discord message edits', () => {
  it('edits a channel message: too long is 50035, a deleted one 404 10008; every call logged', async () => {
    const { fake, client } = await setUp();
    const channelId = fake.channel('general').id;
    const sent = (await client.rest.post(Routes.channelMessages(channelId), { body: { content: 'ร่าง' } })) as { id: string };
    await client.rest.patch(Routes.channelMessage(channelId, sent.id), { body: { content: 'ก'.repeat(2000) } });
    const tooLong = await errorOf(client.rest.patch(Routes.channelMessage(channelId, sent.id), { body: { content: 'ก'.repeat(2001) } }));
    expect(tooLong).toMatchObject({ status: 400, code: 50035 });
    await client.rest.delete(Routes.channelMessage(channelId, sent.id));
    const gone = await errorOf(client.rest.patch(Routes.channelMessage(channelId, sent.id), { body: { content: 'ใหม่' } }));
    expect(gone instanceof DiscordAPIError && [gone.status, gone.code, gone.message]).toEqual([404, 10008, 'Unknown Message']);
    expect(
      fake.callsOf('PATCH /channels/:channel/messages/:message').map((call) => [call.auth, call.outcome && 'status' in call.outcome && call.outcome.status]),
    ).toEqual([
      ['bot', 200],
      ['bot', 400],
      ['bot', 404],
    ]);
  });

  it('edits @original with the token alone; once deleted it is 404 10008', async () => {
    const { fake, client } = await setUp({ guilds: [{ channels: [{ name: 'general' }], members: [{ user: somchai }] }] });
    const arrived = nextEvent(client, Events.InteractionCreate);
    const { id, token } = await fake.dispatchInteraction({ commandName: 'ask', channelId: fake.channel('general').id, user: somchai });
    await arrived;
    const rest = new REST({ api: fake.apiUrl });
    await rest.post(Routes.interactionCallback(id, token), { body: { type: 5 }, auth: false });
    const original = Routes.webhookMessage(fake.applicationId, token, '@original');
    await rest.patch(original, { body: { content: 'ร่าง' }, auth: false });
    expect(await errorOf(rest.patch(original, { body: { content: 'ก'.repeat(2001) }, auth: false }))).toMatchObject({ code: 50035 });
    await rest.delete(original, { auth: false });
    expect(await errorOf(rest.patch(original, { body: { content: 'ใหม่' }, auth: false }))).toMatchObject({ status: 404, code: 10008 });
    expect(fake.callsOf(`PATCH /webhooks/${fake.applicationId}/*/messages/@original`).map((call) => call.auth)).toEqual(['missing', 'missing', 'missing']);
    expect(fake.sentMessages()).toEqual([]);
  });

  it('answers the next N edits with a 429 as Discord writes it, then edits again', async () => {
    const { fake, client } = await setUp();
    const channelId = fake.channel('general').id;
    const sent = (await client.rest.post(Routes.channelMessages(channelId), { body: { content: 'ร่าง' } })) as { id: string };
    // A client that gives up on a rate limit, so each 429 reaches the test as Discord sent it.
    const rest = new REST({ api: fake.apiUrl, rejectOnRateLimit: () => true }).setToken(fake.token);
    const headers: Headers[] = [];
    rest.on('response', (_request, response: ResponseLike) => void headers.push(response.headers));
    fake.failNext('PATCH /channels/*/messages/*', rateLimited({ retryAfter: 0.05 }), 2);
    const edit = (content: string) => rest.patch(Routes.channelMessage(channelId, sent.id), { body: { content } });
    expect(await errorOf(edit('หนึ่ง'))).toBeInstanceOf(RateLimitError);
    const limited = headers[0];
    expect([limited?.get('retry-after'), limited?.get('x-ratelimit-remaining'), limited?.get('x-ratelimit-scope'), limited?.get('x-ratelimit-global')]).toEqual(
      ['1', '0', 'user', null],
    );
    expect(limited?.get('x-ratelimit-bucket')).toMatch(/^[0-9a-f]{32}$/);
    expect(fake.callsOf('PATCH /channels/*/messages/*')[0]?.outcome).toMatchObject({ status: 429, body: { retry_after: 0.05, global: false } });
    // The second 429 goes to a client that waits it out (an answer's): it edits after it.
    await client.rest.patch(Routes.channelMessage(channelId, sent.id), { body: { content: 'สาม' } });
    expect(fake.callsOf('PATCH /channels/*/messages/*').map((call) => call.outcome && 'status' in call.outcome && call.outcome.status)).toEqual([
      429, 429, 200,
    ]);
    expect(fake.sentMessages(channelId).map((message) => message.content)).toEqual(['สาม']);
  });
});
