import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { connectSharedServers, SharedServerError } from '../../src/shared-servers.js';
import { freePort } from '../support/free-port.js';
import { memoryLog } from '../support/memory-log.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';

// REDIS_URL / DATABASE_URL are checked before anything starts: one plain line naming the variable, no password.

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(async () => {
  await redis.close();
});

async function failure(environment: Record<string, string>): Promise<SharedServerError> {
  const error = await connectSharedServers(loadConfig(environment), memoryLog().log).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof SharedServerError)) throw new Error(`expected a SharedServerError, got ${String(error)}`);
  return error;
}

describe('connectSharedServers', () => {
  it('connects to a live Redis and closes it', async () => {
    const shared = await connectSharedServers(loadConfig({ REDIS_URL: redis.url }), memoryLog().log);
    expect(await shared.redis?.ping()).toBe('PONG');
    await shared.close();
    expect(shared.redis?.isOpen).toBe(false);
  });

  it('names REDIS_URL without its password when nothing answers', async () => {
    const port = await freePort();
    const error = await failure({ REDIS_URL: `redis://:hunter2secret@127.0.0.1:${port}` });
    const thai = error.describe('th');
    expect(thai).toContain(`REDIS_URL=redis://127.0.0.1:${port}`);
    expect(thai).toContain('ติดต่อไม่ได้');
    expect(`${thai}${error.describe('en')}${error.message}`).not.toContain('hunter2secret');
  });

  it('names DATABASE_URL without its password, in Thai, when PostgreSQL does not answer', async () => {
    const port = await freePort();
    const error = await failure({ DATABASE_URL: `postgres://saeng:hunter2secret@127.0.0.1:${port}/saeng` });
    expect(error.describe('th')).toContain('DATABASE_URL ใช้ไม่ได้');
    expect(error.describe('th')).toContain('ECONNREFUSED');
    expect(error.describe('en')).toContain('DATABASE_URL cannot be used');
    expect(`${error.describe('th')}${error.describe('en')}${error.message}`).not.toContain('hunter2secret');
  });
});
