import type { Config } from './config.js';
import { connectRedisClient, redisAddress, type RedisClient } from './redis/redis-client.js';
import { checkPostgres, PostgresConnectionError } from './knowledge/index.js';
import { describeError } from './shared/describe-error.js';
import { say, type Localized } from './shared/i18n.js';
import type { Logger } from './shared/log.js';
import type { Language } from './shared/types.js';

// The servers several bot processes share (docs/architecture.md, "More than one process"): Redis for the queue,
// the limits and the keyv stores (REDIS_URL), PostgreSQL for the knowledge bases (DATABASE_URL). Both are checked
// before anything starts: a wrong address stops the process with one plain line, not a bot that looks up and
// fails every message.

export interface SharedServers {
  redis: RedisClient | undefined;
  close(): Promise<void>;
}

const texts = {
  redis: {
    th: 'REDIS_URL={address} ติดต่อไม่ได้ ({reason}): ตรวจว่าเปิด redis-server อยู่และที่อยู่/รหัสผ่านถูกต้อง (sudo apt-get install redis-server) หรือลบ REDIS_URL เพื่อใช้ไฟล์ SQLite ใน DATA_DIR',
    en: 'REDIS_URL={address} cannot be reached ({reason}): check that redis-server runs and the address/password are right (sudo apt-get install redis-server), or unset REDIS_URL to keep state in SQLite files under DATA_DIR',
  },
  postgres: {
    th: 'DATABASE_URL ใช้ไม่ได้ ({reason}): ตรวจว่าเปิด PostgreSQL อยู่ มีฐานข้อมูลนี้ และชื่อผู้ใช้/รหัสผ่านถูกต้อง หรือลบ DATABASE_URL เพื่อเก็บฐานความรู้ใน DATA_DIR/knowledge.db',
    en: 'DATABASE_URL cannot be used ({reason}): check that PostgreSQL runs, the database exists and the user/password are right, or unset DATABASE_URL to keep knowledge bases in DATA_DIR/knowledge.db',
  },
} satisfies Record<string, Localized>;

/** A start-up problem with a shared server, in the user's language. */
export class SharedServerError extends Error {
  constructor(
    private readonly text: Localized,
    private readonly values: Record<string, string>,
    /** The reason in the user's language, when the failure can say it (PostgreSQL's does). */
    private readonly reasonIn?: (language: Language) => string,
  ) {
    super(say(text, 'en', values));
  }

  describe(language: Language): string {
    return say(this.text, language, this.reasonIn ? { ...this.values, reason: this.reasonIn(language) } : this.values);
  }
}

/** Connects to Redis and checks PostgreSQL when they are configured; throws SharedServerError naming the variable. */
export async function connectSharedServers(config: Config, log: Logger): Promise<SharedServers> {
  let redis: RedisClient | undefined;
  if (config.REDIS_URL) {
    try {
      redis = await connectRedisClient({ url: config.REDIS_URL, log });
    } catch (error) {
      throw new SharedServerError(texts.redis, {
        address: redisAddress(config.REDIS_URL),
        reason: describeError(error instanceof Error && error.cause !== undefined ? error.cause : error),
      });
    }
  }
  if (config.DATABASE_URL) {
    try {
      await checkPostgres(config.DATABASE_URL);
    } catch (error) {
      redis?.destroy();
      const reasonIn = error instanceof PostgresConnectionError ? (language: Language) => error.describe(language) : undefined;
      throw new SharedServerError(texts.postgres, { reason: describeError(error) }, reasonIn);
    }
  }
  if (redis && !config.DATABASE_URL)
    log.warn("REDIS_URL without DATABASE_URL: knowledge bases stay in this process's DATA_DIR, not shared with other processes");
  return {
    redis,
    close: async () => {
      if (redis?.isOpen) await redis.close();
    },
  };
}
