import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

// DISCORD_SHARD_IDS / DISCORD_SHARD_COUNT: a list below the count, 'auto', or neither; anything else names the variable.

function problemOf(environment: Record<string, string>): string[] {
  try {
    loadConfig(environment);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('Discord shard settings', () => {
  it('reads a list of shard ids with their count, auto, or none', () => {
    expect(loadConfig({ DISCORD_SHARD_IDS: '1, 0,1', DISCORD_SHARD_COUNT: '2' })).toMatchObject({ DISCORD_SHARD_IDS: [1, 0], DISCORD_SHARD_COUNT: 2 });
    const shardsOf = (environment: Record<string, string>) => {
      const config = loadConfig(environment);
      return [config.DISCORD_SHARD_IDS, config.DISCORD_SHARD_COUNT];
    };
    expect(shardsOf({ DISCORD_SHARD_IDS: 'auto' })).toEqual(['auto', undefined]);
    expect(shardsOf({})).toEqual([undefined, undefined]);
    expect(shardsOf({ DISCORD_SHARD_COUNT: '3' })).toEqual([undefined, 3]);
  });

  it('refuses an id not below the count, ids without a count, and anything not a list', () => {
    const environments: Record<string, string>[] = [
      { DISCORD_SHARD_IDS: '0,2', DISCORD_SHARD_COUNT: '2' },
      { DISCORD_SHARD_IDS: '1' },
      { DISCORD_SHARD_IDS: 'one', DISCORD_SHARD_COUNT: '2' },
      { DISCORD_SHARD_IDS: '-1', DISCORD_SHARD_COUNT: '2' },
    ];
    for (const environment of environments) {
      const problems = problemOf(environment);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain('DISCORD_SHARD_IDS');
      expect(problems[0]).toContain('DISCORD_SHARD_COUNT');
    }
    expect(problemOf({ DISCORD_SHARD_COUNT: '0' })[0]).toContain('DISCORD_SHARD_COUNT');
  });
});
