import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keyv } from 'keyv';
import { SpaceSettingsStore } from '../../../src/settings/space-settings-store.js';
import { defaultCallNames, parseSpaceSettings, spaceSettingsLimits } from '../../../src/settings/space-settings.js';
import { connectRedisClient, type RedisClient } from '../../../src/redis/redis-client.js';
import { silentLogger } from '../../../src/shared/log.js';
import { openStorage } from '../../../src/storage/storage.js';
import { openRedisStorage } from '../../../src/storage/redis-storage.js';
import { startRedisServer, type RedisServer } from '../../support/redis-server.js';
import { redisServerProgram, systemProgramPresent } from '../../support/system-programs.js';

// A space's /settings in the shared store: one JSON value per space, read back through a schema (a stored value is
// input too), moved with the space, the same on SQLite (state.db) and Redis.

const redisInstalled = systemProgramPresent(redisServerProgram);

describe('parseSpaceSettings', () => {
  it('keeps fields of the right shape and range and drops the rest', () => {
    expect(
      parseSpaceSettings({
        language: 'en',
        trigger: 'shout',
        groupContext: spaceSettingsLimits.groupContext + 1,
        quotaPerMinute: 3,
        streaming: 'yes',
        quotes: false,
        instructions: 'x'.repeat(spaceSettingsLimits.instructionsChars + 1),
        names: ['แสง'],
        extra: 'ignored',
      }),
    ).toEqual({ language: 'en', quotaPerMinute: 3, quotes: false, names: ['แสง'] });
  });

  it('reads anything that is not an object as no settings', () => {
    for (const value of [undefined, null, 'th', 42, ['en'], { language: 7 }]) expect(parseSpaceSettings(value)).toEqual({});
  });

  it('calls Saeng by both its names, any other bot by its own', () => {
    expect(defaultCallNames('Saeng')).toEqual(['แสง', 'saeng']);
    expect(defaultCallNames('น้องฟ้า')).toEqual(['น้องฟ้า']);
  });
});

function storeContract(name: string, open: () => Promise<{ store: Keyv; close(): void }>): void {
  describe(name, () => {
    it('stores a change, reads it back, and removes the value when nothing is left but who changed it', async () => {
      const { store, close } = await open();
      const settings = new SpaceSettingsStore(store);
      expect(await settings.get('telegram:-1')).toEqual({});
      await settings.update('telegram:-1', (current) => ({ ...current, language: 'en', quotaPerMinute: 4 }));
      await settings.update('telegram:-1', (current) => ({ ...current, streaming: false }));
      expect(await settings.get('telegram:-1')).toEqual({ language: 'en', quotaPerMinute: 4, streaming: false });
      expect(await settings.get('telegram:-2')).toEqual({});
      await settings.update('telegram:-1', () => ({ updatedBy: 'telegram:1', updatedAt: '2026-12-07T00:00:00.000Z' }));
      expect(await store.get('telegram:-1')).toBeUndefined();
      close();
    });

    it('moves with the space, and the conversation it names moves with it', async () => {
      const { store, close } = await open();
      const settings = new SpaceSettingsStore(store);
      await settings.update('telegram:-5', () => ({ trigger: 'every-message', triggerConversation: 'telegram:-5', language: 'en' }));
      expect(await settings.move('telegram:-5', 'telegram:-1005')).toBe(true);
      expect(await settings.get('telegram:-1005')).toEqual({ trigger: 'every-message', triggerConversation: 'telegram:-1005', language: 'en' });
      expect(await settings.get('telegram:-5')).toEqual({});
      // The second service message finds nothing left; settings the new id has already are newer and stay.
      expect(await settings.move('telegram:-5', 'telegram:-1005')).toBe(false);
      await settings.update('telegram:-6', () => ({ language: 'th' }));
      await settings.update('telegram:-1006', () => ({ language: 'en' }));
      await settings.move('telegram:-6', 'telegram:-1006');
      expect(await settings.get('telegram:-1006')).toEqual({ language: 'en' });
      close();
    });

    it('keeps changes of one space made at once in order (none is lost)', async () => {
      const { store, close } = await open();
      const settings = new SpaceSettingsStore(store);
      await Promise.all([
        settings.update('discord:1', (current) => ({ ...current, streaming: false })),
        settings.update('discord:1', (current) => ({ ...current, quotes: false })),
        settings.update('discord:1', (current) => ({ ...current, groupContext: 3 })),
      ]);
      expect(await settings.get('discord:1')).toEqual({ streaming: false, quotes: false, groupContext: 3 });
      close();
    });
  });
}

storeContract('space settings on SQLite (state.db)', async () => {
  const storage = openStorage(':memory:');
  return { store: storage.settings, close: () => storage.close() };
});

describe.skipIf(!redisInstalled)('on Redis', () => {
  let redis: RedisServer;
  let client: RedisClient;
  let prefix = 0;
  beforeAll(async () => {
    redis = await startRedisServer();
    client = await connectRedisClient({ url: redis.url, log: silentLogger() });
  });
  afterAll(async () => {
    client.destroy();
    await redis.close();
  });

  storeContract('space settings on Redis', async () => {
    prefix += 1;
    const storage = openRedisStorage(client, { keyPrefix: `settings${prefix}:` });
    return { store: storage.settings, close: () => storage.close() };
  });

  it('is kept without an expiry', async () => {
    const storage = openRedisStorage(client, { keyPrefix: 'expiry:' });
    await new SpaceSettingsStore(storage.settings).update('line:C1', () => ({ language: 'en' }));
    expect(await client.pTTL('expiry:settings:line:C1')).toBe(-1);
    storage.close();
  });
});
