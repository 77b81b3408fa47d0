import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('IMAGE_CONTEXT_SECONDS and GROUP_CONTEXT_MESSAGES', () => {
  it('default to 180 seconds and 10 messages', () => {
    const config = loadConfig({});
    expect(config.IMAGE_CONTEXT_SECONDS).toBe(180);
    expect(config.GROUP_CONTEXT_MESSAGES).toBe(10);
  });

  it('accept 0 to turn the feature off', () => {
    const config = loadConfig({ IMAGE_CONTEXT_SECONDS: '0', GROUP_CONTEXT_MESSAGES: '0' });
    expect(config.IMAGE_CONTEXT_SECONDS).toBe(0);
    expect(config.GROUP_CONTEXT_MESSAGES).toBe(0);
  });

  it('name the variable and the expected form when negative or not a number', () => {
    expect(() => loadConfig({ GROUP_CONTEXT_MESSAGES: 'ten' })).toThrow(/GROUP_CONTEXT_MESSAGES: expected a whole number from 0 \(off\) to 50 \(got "ten"\)/);
    try {
      loadConfig({ IMAGE_CONTEXT_SECONDS: '-1' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^IMAGE_CONTEXT_SECONDS: expected a whole number from 0 \(off\)/)]);
    }
  });
});
