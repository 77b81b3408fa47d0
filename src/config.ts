import { z } from 'zod';
import type { Localized } from './shared/i18n.js';
import { ConfigError, expectedFromIssue, shownValue, type ConfigProblem } from './startup-checks-config.js';

export { ConfigError };

// One schema over the environment (docs/architecture.md, "Configuration"). Every error names the variable and the form it wants.

// The form a variable wants, in Thai and English, for its error line; variables without one get a phrase from the
// zod issue (src/startup-checks-config.ts).
const hints = new WeakMap<z.ZodType, Localized>();
function hinted<T extends z.ZodType>(schema: T, hint: Localized): T {
  hints.set(schema, hint);
  return schema;
}
const wholeNumber = (min: number, max: number): Localized => ({
  th: `ต้องเป็นจำนวนเต็มตั้งแต่ ${min} ถึง ${max}`,
  en: `expected a whole number from ${min} to ${max}`,
});
const urlHint = (example: string): Localized => ({
  th: `ต้องเป็น URL ที่ขึ้นต้นด้วย http:// หรือ https:// เช่น ${example}`,
  en: `expected an http(s) URL, e.g. ${example}`,
});

const onOffAuto = z.enum(['auto', 'on', 'off']);
const optionalText = z.string().trim().min(1).optional().catch(undefined);
const httpUrl = () =>
  z
    .string()
    .trim()
    .pipe(z.url({ protocol: /^https?$/ }));
const urlOrDefault = (fallback: string) => hinted(httpUrl().default(fallback), urlHint(fallback));
const optionalUrl = hinted(httpUrl().optional(), urlHint('http://127.0.0.1:8080/v1'));
const positiveInt = (fallback: number, max = 10_000_000) => hinted(z.coerce.number().int().min(1).max(max).default(fallback), wholeNumber(1, max));
const intFrom = (min: number, max: number, fallback: number) => hinted(z.coerce.number().int().min(min).max(max).default(fallback), wholeNumber(min, max));
// 0 turns the feature off.
const countOrOff = (fallback: number, max: number) =>
  hinted(z.coerce.number().int().min(0).max(max).default(fallback), {
    th: `ต้องเป็นจำนวนเต็มตั้งแต่ 0 (ปิด) ถึง ${max}`,
    en: `expected a whole number from 0 (off) to ${max}`,
  });

const trueFalse = (fallback: boolean) =>
  hinted(
    z
      .enum(['true', 'false'])
      .default(fallback ? 'true' : 'false')
      .transform((value) => value === 'true'),
    { th: 'ต้องเป็น true หรือ false', en: 'expected true or false' },
  );

const commaList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

const guildIds = hinted(commaList.pipe(z.array(z.string().regex(/^\d{17,20}$/))), {
  th: 'ต้องเป็นรหัสเซิร์ฟเวอร์ Discord (guild id) คั่นด้วยจุลภาค เช่น 123456789012345678',
  en: 'expected Discord server (guild) ids separated by commas, e.g. 123456789012345678',
});

// Each entry must be able to match a sender id as the platform reports it (src/commands/dispatcher.ts compares
// `platform:senderId` exactly): Telegram a numeric user id (a channel or anonymous group admin: -100…), Discord a
// snowflake, LINE `U` + 32 hex digits, the console any name. `telegram:@alice` can never match, so it is refused.
export const adminIdPattern = /^(?:telegram:-?\d{1,20}|discord:\d{17,20}|line:U[0-9a-f]{32}|console:[^\s:,]{1,128})$/;
const adminIds = hinted(commaList.pipe(z.array(z.string().regex(adminIdPattern))), {
  th: 'ต้องเป็นคู่ แพลตฟอร์ม:รหัส คั่นด้วยจุลภาค ตามรูปแบบของแต่ละแพลตฟอร์ม: telegram:<เลขผู้ใช้> เช่น telegram:123456789 (ไม่ใช่ @ชื่อผู้ใช้), discord:<เลข snowflake 17–20 หลัก> เช่น discord:123456789012345678, line:U<เลขฐานสิบหก 32 ตัว> เช่น line:U0123456789abcdef0123456789abcdef, console:<ชื่อ>',
  en: "expected platform:id pairs separated by commas, each in its platform's form: telegram:<numeric user id>, e.g. telegram:123456789 (not an @username); discord:<17–20 digit snowflake>, e.g. discord:123456789012345678; line:U<32 hex digits>, e.g. line:U0123456789abcdef0123456789abcdef; console:<name>",
});

// Platforms whose answers are shown while the model writes them (LINE cannot edit a sent message: it uses the stream
// only to reply with what is ready when the reply window closes, adapters/line/live-answer.ts).
const streamPlatforms = hinted(
  z
    .string()
    .default('telegram,discord,line,console')
    // An empty variable means "not set" (the default), so streaming is turned off with the word `off`.
    .transform((value) =>
      value.trim() === 'off'
        ? []
        : value
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean),
    )
    .pipe(z.array(z.enum(['telegram', 'discord', 'line', 'console']))),
  {
    th: 'ต้องเป็นชื่อแพลตฟอร์มคั่นด้วยจุลภาค จาก telegram, discord, line, console หรือ off (ไม่แสดงคำตอบระหว่างเขียน)',
    en: 'expected platform names separated by commas, from telegram, discord, line, console, or off (no streaming)',
  },
);

// Discord shards this process runs: 'auto' (all, as many as Discord recommends) or shard ids below DISCORD_SHARD_COUNT.
const shardIdsHint: Localized = {
  th: 'ต้องเป็น auto หรือเลข shard คั่นด้วยจุลภาค แต่ละตัวน้อยกว่า DISCORD_SHARD_COUNT (ต้องตั้งด้วย) เช่น 0,1',
  en: 'expected auto, or shard ids separated by commas, each below DISCORD_SHARD_COUNT (which must be set), e.g. 0,1',
};
const shardIds = hinted(
  z
    .string()
    .trim()
    .regex(/^(auto|\d{1,4}( *, *\d{1,4}){0,255})$/)
    .transform((value) => (value === 'auto' ? ('auto' as const) : [...new Set(value.split(',').map((item) => Number(item.trim())))]))
    .optional(),
  shardIdsHint,
);
const shardCount = hinted(z.coerce.number().int().min(1).max(10_000).optional(), wholeNumber(1, 10_000));

/** Shard ids need their count, and each one lies below it. */
function checkShards(config: { DISCORD_SHARD_IDS?: 'auto' | number[] | undefined; DISCORD_SHARD_COUNT?: number | undefined }, context: z.RefinementCtx): void {
  const ids = config.DISCORD_SHARD_IDS;
  if (!Array.isArray(ids)) return;
  const count = config.DISCORD_SHARD_COUNT;
  if (count === undefined || ids.some((id) => id >= count))
    context.addIssue({ code: 'custom', path: ['DISCORD_SHARD_IDS'], message: 'shard id not below DISCORD_SHARD_COUNT' });
}

export const configSchema = z
  .object({
    MODEL_BASE_URL: urlOrDefault('http://127.0.0.1:8080/v1'),
    MODEL_NAME: z.string().trim().default(''),
    MODEL_API_KEY: z.string().default('no-key'),
    MODEL_TOOLS: onOffAuto.default('auto'),
    MODEL_VISION: onOffAuto.default('auto'),
    MODEL_MAX_STEPS: positiveInt(8, 50),
    MODEL_TIMEOUT_MS: positiveInt(120_000, 3_600_000),
    MODEL_MAX_TOKENS: positiveInt(1024, 32_768),
    MODEL_RETRIES: intFrom(0, 10, 2),
    // Our own bounds on one model step (a server may ignore max_tokens): answer characters, reasoning/<think> and
    // tool-argument characters, and the step's whole time (MODEL_TIMEOUT_MS is the longest silence).
    MODEL_MAX_ANSWER_CHARS: intFrom(500, 200_000, 6_000),
    MODEL_MAX_REASONING_CHARS: intFrom(500, 1_000_000, 24_000),
    MODEL_STEP_MAX_MS: intFrom(10_000, 3_600_000, 300_000),
    EMBEDDINGS_BASE_URL: optionalUrl,
    EMBEDDINGS_MODEL: z.string().trim().default(''),

    DISCORD_TOKEN: optionalText,
    DISCORD_API_BASE_URL: optionalUrl,
    DISCORD_GUILD_IDS: guildIds,
    DISCORD_SHARD_IDS: shardIds,
    DISCORD_SHARD_COUNT: shardCount,
    TELEGRAM_BOT_TOKEN: optionalText,
    TELEGRAM_API_ROOT: optionalUrl,
    TELEGRAM_WEBHOOK_URL: optionalUrl,
    TELEGRAM_WEBHOOK_SECRET: optionalText,
    LINE_CHANNEL_SECRET: optionalText,
    LINE_CHANNEL_ACCESS_TOKEN: optionalText,
    LINE_API_BASE_URL: optionalUrl,
    LINE_DATA_API_BASE_URL: optionalUrl,
    // LINE keeps a reply token valid for about a minute; an answer ready later is pushed (counts against the quota).
    LINE_REPLY_WINDOW_MS: positiveInt(50_000, 600_000),

    SEARCH_PROVIDER: z.enum(['auto', 'searxng', 'brave', 'tavily', 'none']).default('auto'),
    SEARXNG_URL: optionalUrl,
    BRAVE_API_KEY: optionalText,
    BRAVE_API_BASE_URL: urlOrDefault('https://api.search.brave.com'),
    TAVILY_API_KEY: optionalText,
    TAVILY_API_BASE_URL: urlOrDefault('https://api.tavily.com'),
    SEARCH_LLM_FILTER: z.enum(['on', 'always', 'off']).default('on'),
    SEARCH_TIMEOUT_MS: positiveInt(10_000, 120_000),
    SEARCH_CACHE_TTL_SECONDS: positiveInt(900, 7 * 24 * 3600),

    DATA_DIR: z.string().trim().min(1).default('./data'),
    // /readyz says not ready when DATA_DIR's disk has less free space than this (0: no check): a full disk fails writes.
    DATA_DIR_MIN_FREE_MB: countOrOff(100, 10_000_000),
    REDIS_URL: optionalText,
    DATABASE_URL: optionalText,
    // With REDIS_URL: how long a conversation (or the Telegram poller) stays with a process that stopped renewing —
    // the wait before another process takes over after a crash.
    REDIS_LEASE_SECONDS: intFrom(2, 600, 30),
    // With REDIS_URL: start on a Redis without the append-only file (a restart loses accepted messages), warning.
    REDIS_ALLOW_NO_PERSISTENCE: trueFalse(false),
    HTTP_PORT: intFrom(0, 65_535, 3000),
    // The public https address of HTTP_PORT (the reverse proxy): signed download links for files LINE cannot send.
    PUBLIC_BASE_URL: optionalUrl,
    FILE_LINK_SECONDS: positiveInt(86_400, 30 * 86_400),
    // Loopback by default: webhooks reach it through a reverse proxy; 0.0.0.0 only when the port is firewalled.
    HTTP_HOST: z.string().trim().min(1).default('127.0.0.1'),
    ADMIN_IDS: adminIds,
    BOT_LANGUAGE: z.enum(['th', 'en']).default('th'),
    BOT_TIMEZONE: hinted(z.string().trim().default('Asia/Bangkok').refine(isTimeZone), {
      th: 'ต้องเป็นชื่อเขตเวลาแบบ IANA เช่น Asia/Bangkok',
      en: 'expected an IANA time zone, e.g. Asia/Bangkok',
    }),
    BOT_NAME: z.string().trim().min(1).default('Saeng'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    OCR_LANGS: hinted(
      z
        .string()
        .trim()
        .regex(/^[a-z_]{3,16}(\+[a-z_]{3,16}){0,5}$/)
        .default('tha+eng'),
      { th: 'ต้องเป็นรหัสภาษาของ tesseract คั่นด้วย + เช่น tha+eng', en: 'expected tesseract languages, e.g. tha+eng' },
    ),
    // The tesseract program: a name on PATH or a full path (a build in /usr/local, a wrapper script).
    TESSERACT_PATH: z.string().trim().min(1).default('tesseract'),
    // A receipt takes 1–3 s on 2 cores; a stuck tesseract must not hold a turn for long.
    OCR_TIMEOUT_MS: positiveInt(20_000, 600_000),
    // OCR is CPU-bound beside the model server: one job at a time unless the machine has cores to spare.
    OCR_CONCURRENCY: positiveInt(1, 16),
    // Scanned PDFs added to a knowledge base: pages beyond this are refused rather than OCR'd for an hour.
    OCR_MAX_PAGES: positiveInt(100, 2000),
    VISION_MAX_EDGE: intFrom(256, 4096, 1280),
    MAX_IMAGE_BYTES: positiveInt(20 * 1024 * 1024, 512 * 1024 * 1024),
    // Width × height: a small PNG can declare a gigapixel canvas (decompression bomb); a 48 MP phone photo passes.
    MAX_IMAGE_PIXELS: positiveInt(50_000_000, 500_000_000),

    TURN_CONCURRENCY: positiveInt(2, 64),
    STREAM_PLATFORMS: streamPlatforms,
    SHUTDOWN_GRACE_MS: positiveInt(20_000, 600_000),
    // A platform that cannot start yet (network down at boot) is tried again: 1 s, 2 s, 4 s… up to this, jittered.
    PLATFORM_RETRY_MAX_SECONDS: positiveInt(60, 3600),
    USER_MESSAGES_PER_MINUTE: positiveInt(10, 10_000),
    DEDUPE_TTL_SECONDS: positiveInt(24 * 3600, 30 * 24 * 3600),
    MAX_MESSAGE_CHARS: positiveInt(8000, 100_000),
    // A backlog after downtime (src/pipeline/late-answer.ts): older than this, an answer says it is late; past the
    // second, no turn runs and one reply lists the missed questions. 0 turns either off.
    MAX_MESSAGE_AGE_MS: countOrOff(1_800_000, 30 * 86_400_000),
    MISSED_MESSAGE_AGE_MS: countOrOff(86_400_000, 365 * 86_400_000),
    // Questions of one sender each within this of the one before become one turn (src/pipeline/burst.ts). 0: off.
    BURST_WINDOW_MS: countOrOff(2000, 10_000),
    MAX_ATTACHMENT_BYTES: positiveInt(20 * 1024 * 1024, 512 * 1024 * 1024),
    IMAGE_CONTEXT_SECONDS: countOrOff(180, 24 * 3600),
    GROUP_CONTEXT_MESSAGES: countOrOff(10, 50),
  })
  .superRefine(checkShards);

export type Config = z.infer<typeof configSchema>;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Reads the configuration from an environment; throws a ConfigError naming each bad variable. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const value = environment[key];
    // An empty variable means "not set", as in most .env files.
    if (value !== undefined && value.trim() !== '') input[key] = value;
  }
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const problems = new Map<string, ConfigProblem>();
    for (const issue of parsed.error.issues) {
      const variable = String(issue.path[0] ?? '(environment)');
      // One line per variable: a list with two bad items is one problem.
      if (problems.has(variable)) continue;
      const value = input[variable];
      const schema = (configSchema.shape as Record<string, z.ZodType | undefined>)[variable];
      problems.set(variable, {
        variable,
        shown: value === undefined ? undefined : shownValue(variable, value, isSecretName),
        expected: (schema && hints.get(schema)) ?? expectedFromIssue(issue),
      });
    }
    throw new ConfigError([...problems.values()]);
  }
  return parsed.data;
}

const secretNames = /TOKEN|KEY|SECRET|PASSWORD|DATABASE_URL|REDIS_URL/;

function isSecretName(name: string): boolean {
  return secretNames.test(name);
}

/** The exact values of every secret in the configuration (the DLP blocks them verbatim). */
function urlPassword(value: string): string | undefined {
  if (!value.includes('://')) return undefined;
  try {
    return decodeURIComponent(new URL(value).password) || undefined;
  } catch {
    return undefined;
  }
}

export function configSecrets(config: Config): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(config)) {
    if (typeof value !== 'string' || value.length < 8 || value === 'no-key') continue;
    if (!name.endsWith('_URL')) {
      if (secretNames.test(name)) values.push(value);
      continue;
    }
    // Any URL (database, Redis, a model server or SearXNG behind basic auth) is a secret through its password: the
    // URL, and the password on its own (a model may quote just that part). Without one it is an address.
    const password = urlPassword(value);
    if (password) values.push(value, ...(password.length >= 8 ? [password] : []));
  }
  return values;
}
