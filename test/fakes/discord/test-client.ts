import { Client, Events, GatewayIntentBits, Partials, type ClientEvents, type ClientOptions } from 'discord.js';
import { startFakeDiscord, type FakeDiscord, type FakeDiscordOptions } from './index.js';

// Shared by the fake's own tests: a fake and a real discord.js Client pointed at it, logged in and ready, with
// cleanups that destroy the client before closing the fake.

export const defaultIntents = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMessages, GatewayIntentBits.DirectMessages, GatewayIntentBits.MessageContent];

export interface Harness {
  fake: FakeDiscord;
  client: Client;
}

export function newClient(fake: FakeDiscord, options: Partial<ClientOptions> = {}): Client {
  return new Client({ intents: defaultIntents, partials: [Partials.Channel], rest: { api: fake.apiUrl, cdn: fake.cdnUrl }, ...options });
}

export function createHarnessFactory(cleanups: (() => Promise<void>)[]) {
  return async (fakeOptions: FakeDiscordOptions = {}, clientOptions: Partial<ClientOptions> = {}): Promise<Harness> => {
    const fake = await startFakeDiscord(fakeOptions);
    cleanups.push(() => fake.close());
    const client = newClient(fake, clientOptions);
    cleanups.push(() => client.destroy());
    const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
    await client.login(fake.token);
    await ready;
    return { fake, client };
  };
}

/** Resolves with the next emission of `event` on the client. */
export function nextEvent<Name extends keyof ClientEvents>(client: Client, event: Name): Promise<ClientEvents[Name]> {
  return new Promise((resolve) => client.once(event, (...args) => resolve(args)));
}
