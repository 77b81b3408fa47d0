import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, configSecrets, loadConfig } from '../../src/config.js';

function problemsOf(environment: Record<string, string>): string[] {
  try {
    loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
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
    expect(loadConfig({ ADMIN_IDS: 'discord:1234, telegram:-100987 ,console:alice' }).ADMIN_IDS).toEqual(['discord:1234', 'telegram:-100987', 'console:alice']);
  });

  it('lists the exact secret values for the DLP', () => {
    const config = loadConfig({ TELEGRAM_BOT_TOKEN: '123456:ABCdefGHIjklMNOpqrSTUvwxYZ', BRAVE_API_KEY: 'BSAabcdefgh12345', MODEL_NAME: 'qwen' });
    expect(configSecrets(config).sort()).toEqual(['123456:ABCdefGHIjklMNOpqrSTUvwxYZ', 'BSAabcdefgh12345'].sort());
  });

  it('also lists the password of a database or Redis URL on its own', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://saeng:Tr0ub4dor%26x@127.0.0.1:5432/saeng', REDIS_URL: 'redis://127.0.0.1:6379' });
    expect(configSecrets(config)).toEqual(['postgres://saeng:Tr0ub4dor%26x@127.0.0.1:5432/saeng', 'Tr0ub4dor&x']);
  });

  it('accepts .env.example as it ships, and it names every variable of the schema', async () => {
    const example = parseEnv(readFileSync(new URL('../../.env.example', import.meta.url), 'utf8'));
    expect(() => loadConfig(example)).not.toThrow();
    const { configSchema } = await import('../../src/config.js');
    const undocumented = Object.keys(configSchema.shape).filter((name) => !(name in example) && !['REDIS_URL', 'DATABASE_URL'].includes(name));
    expect(undocumented).toEqual([]);
  });
});
