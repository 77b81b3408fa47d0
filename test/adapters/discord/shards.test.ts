import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDiscordAdapter } from '../../../adapters/discord/index.js';
import type { PlatformAdapter } from '../../../src/shared/channel.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import { discordUser, startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.js';
import { testInboundHandler } from '../../support/inbound-handler.js';

// Two Discord adapters (two bot processes) running shards [0] and [1] of 2 against the fake gateway, which routes
// as Discord does: a guild's events to shard (guild_id >> 22) % 2. Each process takes only its own guild's messages.

const somchai = discordUser('somchai');
// (id >> 22) is the snowflake's timestamp part: even → shard 0, odd → shard 1.
const guildOnShardZero = String((300_000_000_000n << 22n) + 4_242n);
const guildOnShardOne = String((300_000_000_001n << 22n) + 4_242n);

let fake: FakeDiscord;
const adapters: PlatformAdapter[] = [];
const taken: { shard: number; text: string; spaceKey: string }[] = [];

async function startShard(shard: number): Promise<PlatformAdapter> {
  const adapter = createDiscordAdapter({
    token: fake.token,
    apiBaseUrl: fake.apiUrl,
    guildIds: [],
    logger: silentLogger(),
    language: 'th',
    searchConfigured: false,
    shards: [shard],
    shardCount: 2,
  });
  adapters.push(adapter);
  await adapter.start(
    testInboundHandler(async (message: InboundMessage) => {
      taken.push({ shard, text: message.text, spaceKey: message.spaceKey });
      return 'stored';
    }),
  );
  return adapter;
}

/** Resolves once `count` messages were taken, by whichever process. */
const takenCount = (count: number): Promise<void> => vi.waitFor(() => expect(taken.length).toBeGreaterThanOrEqual(count), { timeout: 5000, interval: 10 });

beforeAll(async () => {
  fake = await startFakeDiscord({
    guilds: [
      { id: guildOnShardZero, channels: [{ name: 'zero-general' }], members: [{ user: somchai }] },
      { id: guildOnShardOne, channels: [{ name: 'one-general' }], members: [{ user: somchai }] },
    ],
  });
});

afterAll(async () => {
  for (const adapter of adapters) await adapter.stop();
  await fake.close();
});

describe('Discord shards across processes', () => {
  it('identifies each process with its shard and hands each one only the guild it owns', async () => {
    const zero = await startShard(0);
    const one = await startShard(1);
    expect(fake.identifies.map((identify) => identify.shard)).toEqual([
      [0, 2],
      [1, 2],
    ]);
    expect(await zero.statusLines?.('en', true)).toEqual(['Discord: this process runs shard(s) 0 of 2']);
    expect(await one.statusLines?.('th', true)).toEqual(['Discord: โปรเซสนี้ดูแลชาร์ด 1 จากทั้งหมด 2']);
    expect(await one.statusLines?.('en', false)).toEqual([]);

    await fake.dispatchMessage({ channelId: fake.channel('one-general').id, author: somchai, content: `<@${fake.botUser.id}> ถึงชาร์ดหนึ่ง` });
    await fake.dispatchMessage({ channelId: fake.channel('zero-general').id, author: somchai, content: `<@${fake.botUser.id}> ถึงชาร์ดศูนย์` });
    // Then one more on each connection (a DM goes to shard 0): each socket keeps order, so by the time these are
    // taken, a copy of the first two sent to the wrong process would have been taken too.
    await fake.dispatchMessage({ channelId: fake.dmChannel(somchai).id, author: somchai, content: 'ข้อความส่วนตัว' });
    await fake.dispatchMessage({ channelId: fake.channel('one-general').id, author: somchai, content: `<@${fake.botUser.id}> อีกครั้ง` });
    await takenCount(4);
    expect(taken.map(({ shard, text }) => [shard, text]).sort()).toEqual([
      [0, 'ข้อความส่วนตัว'],
      [0, 'ถึงชาร์ดศูนย์'],
      [1, 'ถึงชาร์ดหนึ่ง'],
      [1, 'อีกครั้ง'],
    ]);
    expect(taken.find((each) => each.text === 'ถึงชาร์ดศูนย์')?.spaceKey).toBe(`discord:${guildOnShardZero}`);
    expect(taken.find((each) => each.text === 'ถึงชาร์ดหนึ่ง')?.spaceKey).toBe(`discord:${guildOnShardOne}`);
  });
});
