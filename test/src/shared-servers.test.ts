import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { connectSharedServers, SharedServerError } from '../../src/shared-servers.js';
import { freePort } from '../support/free-port.js';
import { memoryLog } from '../support/memory-log.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { redisServerProgram, systemProgramPresent } from '../support/system-programs.js';

const redisInstalled = systemProgramPresent(redisServerProgram);

// REDIS_URL / DATABASE_URL are checked before anything starts: one plain line naming the variable, no password.
// A Redis that would forget acknowledged messages on a restart (no append-only file) is refused the same way.

let redis: RedisServer;
let volatile: RedisServer;
beforeAll(async () => {
  [redis, volatile] = await Promise.all([startRedisServer({ persistence: 'aof' }), startRedisServer({ persistence: 'none' })]);
  // Managed Redis often forbids CONFIG: a user without it (INFO still allowed), and one without INFO either.
  const admin = await createClient({ url: redis.url }).connect();
  await admin.sendCommand(['ACL', 'SETUSER', 'managed', 'on', '>managed-pass', '~*', '&*', '+@all', '-config']);
  await admin.sendCommand(['ACL', 'SETUSER', 'blind', 'on', '>blind-pass', '~*', '&*', '+@all', '-config', '-info']);
  admin.destroy();
});
afterAll(async () => {
  await Promise.all([redis.close(), volatile.close()]);
});

const withUser = (url: string, user: string, password: string): string => url.replace('redis://', `redis://${user}:${password}@`);

async function failure(environment: Record<string, string>): Promise<SharedServerError> {
  const error = await connectSharedServers(loadConfig(environment), memoryLog().log).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof SharedServerError)) throw new Error(`expected a SharedServerError, got ${String(error)}`);
  return error;
}

describe.skipIf(!redisInstalled)('connectSharedServers', () => {
  it('connects to a live Redis with appendonly yes and closes it', async () => {
    const shared = await connectSharedServers(loadConfig({ REDIS_URL: redis.url }), memoryLog().log);
    expect(await shared.redis?.ping()).toBe('PONG');
    await shared.close();
    expect(shared.redis?.isOpen).toBe(false);
  });

  it('refuses a Redis without persistence (appendonly no, save ""): one line naming REDIS_URL and what to set', async () => {
    const error = await failure({ REDIS_URL: volatile.url });
    expect(error.describe('th')).toBe(
      `REDIS_URL=${volatile.url}: Redis ไม่ได้บันทึกข้อมูลลงดิสก์ (appendonly no, save "") ข้อความที่ตอบรับแพลตฟอร์มไปแล้วจะหายเมื่อ Redis รีสตาร์ต: ตั้ง appendonly yes และ appendfsync everysec (หรือ always) ใน redis.conf แล้วรีสตาร์ต Redis (หรือ CONFIG SET appendonly yes แล้ว CONFIG REWRITE) หรือตั้ง REDIS_ALLOW_NO_PERSISTENCE=true ถ้ายอมให้หายได้`,
    );
    expect(error.describe('en')).toContain('Redis does not persist its data (appendonly no');
    expect(error.describe('en')).toContain('set appendonly yes and appendfsync everysec (or always)');
    // The refused connection is closed, not left to keep the process alive.
    const clients = await createClient({ url: volatile.url }).connect();
    const list = String(await clients.sendCommand(['CLIENT', 'LIST']));
    clients.destroy();
    expect(list.trim().split('\n')).toHaveLength(1);
  });

  it('refuses appendfsync no (writes left to the kernel for up to 30 s)', async () => {
    const admin = await createClient({ url: redis.url }).connect();
    await admin.configSet('appendfsync', 'no');
    try {
      expect((await failure({ REDIS_URL: redis.url, BOT_LANGUAGE: 'en' })).describe('en')).toContain('(appendonly yes, appendfsync no, save "")');
    } finally {
      await admin.configSet('appendfsync', 'everysec');
      admin.destroy();
    }
  });

  it('with REDIS_ALLOW_NO_PERSISTENCE=true: starts, with the same line as a warning', async () => {
    const memory = memoryLog();
    const shared = await connectSharedServers(loadConfig({ REDIS_URL: volatile.url, REDIS_ALLOW_NO_PERSISTENCE: 'true', BOT_LANGUAGE: 'en' }), memory.log);
    await shared.close();
    const warning = memory.records.find((record) => record.level === 40 && record.msg.includes('does not persist'));
    expect(warning?.msg).toContain('(REDIS_ALLOW_NO_PERSISTENCE=true: starting anyway)');
    expect(warning?.variable).toBe('REDIS_URL');
  });

  it('CONFIG forbidden (managed Redis): INFO persistence decides (aof_enabled:1 starts)', async () => {
    const shared = await connectSharedServers(loadConfig({ REDIS_URL: withUser(redis.url, 'managed', 'managed-pass') }), memoryLog().log);
    await shared.close();
  });

  it('neither CONFIG nor INFO readable: refused, saying the settings could not be read (no password)', async () => {
    const error = await failure({ REDIS_URL: withUser(redis.url, 'blind', 'blind-pass') });
    expect(error.describe('en')).toContain("Redis's persistence settings cannot be read (CONFIG GET: ");
    expect(error.describe('th')).toContain('อ่านค่าการบันทึกข้อมูลของ Redis ไม่ได้');
    expect(`${error.describe('th')}${error.describe('en')}`).not.toContain('blind-pass');
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
