import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, configSecrets, loadConfig } from '../../src/config.js';
import { shownValue } from '../../src/startup-checks-config.js';

function configErrorOf(environment: Record<string, string>): ConfigError {
  try {
    loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

function problemsOf(environment: Record<string, string>): string[] {
  return configErrorOf(environment).problems;
}

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config.MODEL_BASE_URL).toBe('http://127.0.0.1:8080/v1');
    expect(config.MODEL_MAX_STEPS).toBe(8);
    expect(config.MODEL_TOOLS).toBe('auto');
    expect(config.BOT_LANGUAGE).toBe('th');
    expect(config.BOT_TIMEZONE).toBe('Asia/Bangkok');
    expect(config.DATA_DIR).toBe('./data');
    expect(config.HTTP_PORT).toBe(3000);
    expect(config.ADMIN_IDS).toEqual([]);
    expect(config.SEARCH_LLM_FILTER).toBe('on');
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ MODEL_NAME: '', DISCORD_TOKEN: '  ' }).DISCORD_TOKEN).toBeUndefined();
  });

  it.each([
    ['MODEL_BASE_URL', 'localhost:8080', 'http'],
    ['MODEL_MAX_STEPS', 'eight', 'number'],
    ['MODEL_TOOLS', 'yes', 'auto'],
    ['ADMIN_IDS', 'discord:1, 12345', 'platform:id'],
    ['BOT_TIMEZONE', 'Mars/Olympus', 'IANA'],
    ['BOT_LANGUAGE', 'fr', 'th'],
    ['HTTP_PORT', '70000', '65535'],
    ['OCR_LANGS', 'tha eng', 'tha+eng'],
  ])('names %s and the expected form when it is %j', (name, value, hint) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}: `));
    expect(problems[0]?.toLowerCase()).toContain(hint.toLowerCase());
  });

  it('reports every bad variable at once and never echoes a secret', () => {
    const problems = problemsOf({ MODEL_MAX_STEPS: '0', LINE_CHANNEL_SECRET: '', DATABASE_URL: 'x', MODEL_TIMEOUT_MS: '-5' });
    expect(problems.map((problem) => problem.split(':')[0]).sort()).toEqual(['MODEL_MAX_STEPS', 'MODEL_TIMEOUT_MS']);
  });

  it('parses ADMIN_IDS into platform:id pairs', () => {
    const line = `line:U${'0123456789abcdef'.repeat(2)}`;
    expect(loadConfig({ ADMIN_IDS: `discord:123456789012345678, telegram:-100987 ,console:alice, telegram:42,${line}` }).ADMIN_IDS).toEqual([
      'discord:123456789012345678',
      'telegram:-100987',
      'console:alice',
      'telegram:42',
      line,
    ]);
  });

  // The dispatcher compares `platform:senderId` exactly: an entry no sender id can have is refused at start.
  it.each([
    ['telegram:@alice', 'telegram:<numeric user id>', 'telegram:<เลขผู้ใช้>'],
    ['discord:1234', '17–20 digit snowflake', 'snowflake 17–20 หลัก'],
    ['discord:alice', '17–20 digit snowflake', 'snowflake 17–20 หลัก'],
    ['line:alice', 'line:U<32 hex digits>', 'line:U<เลขฐานสิบหก 32 ตัว>'],
    ['line:u0123456789ABCDEF0123456789ABCDEF', 'line:U<32 hex digits>', 'line:U<เลขฐานสิบหก 32 ตัว>'],
    ['slack:U123', 'platform:id', 'แพลตฟอร์ม:รหัส'],
  ])("refuses ADMIN_IDS entry %j, naming the variable and each platform's form in English and Thai", (entry, english, thai) => {
    let caught: unknown;
    try {
      loadConfig({ ADMIN_IDS: `console:alice,${entry}` });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const error = caught as ConfigError;
    expect(error.describe('en')).toMatch(/ADMIN_IDS: expected platform:id pairs/);
    expect(error.describe('en')).toContain(english);
    expect(error.describe('en')).toContain(JSON.stringify(`console:alice,${entry}`));
    expect(error.describe('th')).toMatch(/ADMIN_IDS: ต้องเป็นคู่/);
    expect(error.describe('th')).toContain(thai);
  });

  it('lists the exact secret values for the DLP', () => {
    const config = loadConfig({ TELEGRAM_BOT_TOKEN: '123456:ABCdefGHIjklMNOpqrSTUvwxYZ', BRAVE_API_KEY: 'BSAabcdefgh12345', MODEL_NAME: 'qwen' });
    expect(configSecrets(config).sort()).toEqual(['123456:ABCdefGHIjklMNOpqrSTUvwxYZ', 'BSAabcdefgh12345'].sort());
  });

  it('also lists the password of a database or Redis URL on its own', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://saeng:Tr0ub4dor%26x@127.0.0.1:5432/saeng', REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(configSecrets(config)).toEqual(['postgres://saeng:Tr0ub4dor%26x@127.0.0.1:5432/saeng', 'Tr0ub4dor&x']);
  });

  it('a model server or SearXNG URL with a password is a secret too; without one it is an address', () => {
    const config = loadConfig({ MODEL_BASE_URL: 'http://bot:s3cretPass@10.0.0.5:8080/v1', SEARXNG_URL: 'http://127.0.0.1:8888' });
    expect(configSecrets(config)).toEqual(['http://bot:s3cretPass@10.0.0.5:8080/v1', 's3cretPass']);
  });

  it('accepts .env.example as it ships, and it names every variable of the schema', async () => {
    const example = parseEnv(readFileSync(new URL('../../.env.example', import.meta.url), 'utf8'));
    expect(() => loadConfig(example)).not.toThrow();
    const { configSchema } = await import('../../src/config.js');
    const undocumented = Object.keys(configSchema.shape).filter((name) => !(name in example) && !['REDIS_URL', 'DATABASE_URL'].includes(name));
    expect(undocumented).toEqual([]);
  });
});

describe('ConfigError.describe: what the user reads', () => {
  const everythingWrong = {
    MODEL_TIMEOUT_MS: 'abc',
    MODEL_MAX_STEPS: '1.5',
    MODEL_RETRIES: '-1',
    HTTP_PORT: '70000',
    BOT_LANGUAGE: 'fr',
    LOG_LEVEL: 'loud',
    MODEL_BASE_URL: 'localhost:8080',
    ADMIN_IDS: 'x,y',
    DISCORD_GUILD_IDS: '12,34',
    BOT_TIMEZONE: 'Mars/Olympus',
    OCR_LANGS: 'tha eng',
    VISION_MAX_EDGE: '10',
    GROUP_CONTEXT_MESSAGES: 'ten',
  };

  it('Thai, plain words: MODEL_TIMEOUT_MS=abc says it must be a whole number and shows the value', () => {
    const text = configErrorOf({ MODEL_TIMEOUT_MS: 'abc' }).describe('th');
    expect(text.split('\n')).toEqual([
      'ตั้งค่าไม่ถูกต้อง:',
      '  - MODEL_TIMEOUT_MS: ต้องเป็นจำนวนเต็มตั้งแต่ 1 ถึง 3600000 (ตอนนี้ตั้งไว้เป็น "abc")',
      'แก้ค่าในไฟล์ .env หรือตัวแปรสภาพแวดล้อม (ดูตัวอย่างใน .env.example และตารางการตั้งค่าใน docs/configuration.md)',
    ]);
  });

  it('an enum lists its values; a URL gives an example', () => {
    const text = configErrorOf({ BOT_LANGUAGE: 'fr', MODEL_BASE_URL: 'localhost:8080' }).describe('th');
    expect(text).toContain('BOT_LANGUAGE: ต้องเป็นหนึ่งใน: th, en (ตอนนี้ตั้งไว้เป็น "fr")');
    expect(text).toContain('MODEL_BASE_URL: ต้องเป็น URL ที่ขึ้นต้นด้วย http:// หรือ https:// เช่น http://127.0.0.1:8080/v1');
  });

  it.each(['th', 'en'] as const)('no zod wording in any line (%s), one line per bad variable', (language) => {
    const text = configErrorOf(everythingWrong).describe(language);
    expect(text).not.toMatch(/Invalid (input|option|format)|received|NaN|Too (small|big)|expected (number|string)|>=|<=/);
    const lines = text.split('\n').filter((line) => line.startsWith('  - '));
    expect(lines.map((line) => line.slice(4).split(':')[0]).sort()).toEqual(Object.keys(everythingWrong).sort());
  });

  it('never shows a password inside a URL, nor a secret variable at all', () => {
    const text = configErrorOf({ EMBEDDINGS_BASE_URL: 'ftp://saeng:hunter2-secret@127.0.0.1/v1' }).describe('en');
    expect(text).toContain('(got "ftp://saeng:***@127.0.0.1/v1")');
    expect(text).not.toContain('hunter2-secret');
    expect(shownValue('DISCORD_TOKEN', 'hunter2-secret', (name) => name.endsWith('_TOKEN'))).toBe('"***"');
    expect(shownValue('EMBEDDINGS_BASE_URL', 'not a url but has @ hunter2-secret', () => false)).toBe('"***"');
    expect(shownValue('MODEL_NAME', 'x'.repeat(500), () => false)).toHaveLength(123);
  });
});
