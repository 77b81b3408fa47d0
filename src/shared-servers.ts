import type { Config } from './config.js';
import { connectRedisClient, redisAddress, type RedisClient } from './redis/redis-client.js';
import { describePersistence, readRedisPersistence } from './redis/redis-persistence.js';
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
  // The queue acknowledges a message once Redis has it: without the append-only file a Redis restart forgets it.
  notDurable: {
    th: 'REDIS_URL={address}: Redis ไม่ได้บันทึกข้อมูลลงดิสก์ ({settings}) ข้อความที่ตอบรับแพลตฟอร์มไปแล้วจะหายเมื่อ Redis รีสตาร์ต: ตั้ง appendonly yes และ appendfsync everysec (หรือ always) ใน redis.conf แล้วรีสตาร์ต Redis (หรือ CONFIG SET appendonly yes แล้ว CONFIG REWRITE) หรือตั้ง REDIS_ALLOW_NO_PERSISTENCE=true ถ้ายอมให้หายได้',
    en: 'REDIS_URL={address}: Redis does not persist its data ({settings}), so messages already acknowledged to the platform are lost when Redis restarts: set appendonly yes and appendfsync everysec (or always) in redis.conf and restart Redis (or CONFIG SET appendonly yes, then CONFIG REWRITE), or set REDIS_ALLOW_NO_PERSISTENCE=true to accept that loss',
  },
  persistenceUnknown: {
    th: 'REDIS_URL={address}: อ่านค่าการบันทึกข้อมูลของ Redis ไม่ได้ ({settings}) จึงไม่รู้ว่าข้อความที่ตอบรับแล้วจะอยู่รอดเมื่อ Redis รีสตาร์ตหรือไม่: ตรวจว่า Redis ตั้ง appendonly yes และ appendfsync everysec (หรือ always) แล้วตั้ง REDIS_ALLOW_NO_PERSISTENCE=true เพื่อเริ่มต่อ',
    en: "REDIS_URL={address}: Redis's persistence settings cannot be read ({settings}), so it is unknown whether acknowledged messages survive a Redis restart: check that Redis has appendonly yes and appendfsync everysec (or always), then set REDIS_ALLOW_NO_PERSISTENCE=true to start",
  },
  startingAnyway: {
    th: '{problem} (REDIS_ALLOW_NO_PERSISTENCE=true: เริ่มต่อ)',
    en: '{problem} (REDIS_ALLOW_NO_PERSISTENCE=true: starting anyway)',
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
    await checkRedisPersistence(redis, config, log).catch((error: unknown) => {
      redis?.destroy();
      throw error;
    });
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

/**
 * Refuses a Redis that would forget acknowledged messages on a restart (SharedServerError), or with
 * REDIS_ALLOW_NO_PERSISTENCE=true logs the same line as a warning and goes on.
 */
async function checkRedisPersistence(redis: RedisClient, config: Config, log: Logger): Promise<void> {
  const persistence = await readRedisPersistence(redis);
  if (persistence.durable) return;
  const text = persistence.source === 'unknown' ? texts.persistenceUnknown : texts.notDurable;
  const values = { address: redisAddress(config.REDIS_URL ?? ''), settings: describePersistence(persistence) };
  if (!config.REDIS_ALLOW_NO_PERSISTENCE) throw new SharedServerError(text, values);
  const problem = say(text, config.BOT_LANGUAGE, values);
  log.warn({ variable: 'REDIS_URL', persistence }, say(texts.startingAnyway, config.BOT_LANGUAGE, { problem }));
}
