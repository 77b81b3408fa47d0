import { DiscordjsErrorCodes, Events, GatewayIntentBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { discordUser, startFakeDiscord } from './index.js';
import { createHarnessFactory, newClient, nextEvent } from './test-client.js';

// The gateway's failure modes as discord.js meets them: a disallowed privileged intent (4014), a bad token, a
// heartbeat, and a dropped connection that discord.js resumes without losing a dispatch.

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const setUp = createHarnessFactory(cleanups);

describe('fake Discord gateway under real discord.js', () => {
  it('closes an IDENTIFY asking for a disallowed intent with 4014: login rejects, no reconnect', async () => {
    const fake = await startFakeDiscord({ disallowedIntents: GatewayIntentBits.MessageContent });
    cleanups.push(() => fake.close());
    const client = newClient(fake);
    cleanups.push(() => client.destroy());
    const events: string[] = [];
    client.on(Events.ShardDisconnect, (event) => events.push(`shardDisconnect ${event.code}`));
    client.on(Events.ShardError, (error) => events.push(`shardError ${error.message}`));
    client.on(Events.ShardReconnecting, () => events.push('shardReconnecting'));
    const failure = await client.login(fake.token).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect([(failure as Error).message, (failure as { code?: unknown }).code]).toEqual(['Used disallowed intents', undefined]);
    expect(events).toEqual(['shardDisconnect 4014', 'shardError Used disallowed intents']);
    expect(await fake.waitForGatewayClose()).toEqual({ code: 4014, reason: 'Disallowed intent(s).', by: 'fake' });
    // login() destroyed the client: no token, not ready, one IDENTIFY only.
    expect([client.token, client.isReady(), fake.identifies.length]).toEqual([null, false, 1]);
  });

  it('rejects a wrong token at GET /gateway/bot with 401, which discord.js turns into TokenInvalid', async () => {
    const fake = await startFakeDiscord();
    cleanups.push(() => fake.close());
    const client = newClient(fake);
    cleanups.push(() => client.destroy());
    await expect(client.login(`${fake.token}x`)).rejects.toMatchObject({ code: DiscordjsErrorCodes.TokenInvalid });
    expect(fake.calls.map((call) => [call.path, call.auth, call.outcome])).toEqual([
      ['/gateway/bot', 'wrong', { status: 401, body: { message: '401: Unauthorized', code: 0 } }],
    ]);
    expect(fake.identifies).toEqual([]);
  });

  it('acknowledges heartbeats with op 11', async () => {
    const { client } = await setUp({ heartbeatIntervalMs: 20 });
    await new Promise<void>((resolve) => {
      const listener = (message: string): void => {
        if (!message.includes('Heartbeat acknowledged')) return;
        client.off(Events.Debug, listener);
        resolve();
      };
      client.on(Events.Debug, listener);
    });
    expect(client.ws.ping).toBeGreaterThanOrEqual(0);
  });

  it('resumes after the fake drops the connection (4000) and replays what was sent meanwhile', async () => {
    const somchai = discordUser('somchai');
    const { fake, client } = await setUp({ guilds: [{ members: [{ user: somchai }] }] });
    const resumed = nextEvent(client, Events.ShardResume);
    await fake.closeGateway(4000, 'Unknown error');
    const arrived = nextEvent(client, Events.MessageCreate);
    // Sent while disconnected: Discord keeps it for the session, and RESUME replays it.
    await fake.dispatchMessage({ channelId: fake.channel('general').id, author: somchai, content: 'ระหว่างหลุด' });
    expect((await arrived)[0].content).toBe('ระหว่างหลุด');
    await resumed;
    const after = nextEvent(client, Events.MessageCreate);
    await fake.dispatchMessage({ channelId: fake.channel('general').id, author: somchai, content: 'หลังเชื่อมใหม่' });
    expect((await after)[0].content).toBe('หลังเชื่อมใหม่');
    expect(fake.identifies).toHaveLength(1);
    expect(fake.gatewayQueries).toEqual(['v=10&encoding=json', 'v=10&encoding=json']);
  });
});
