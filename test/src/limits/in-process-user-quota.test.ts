import { describe, expect, it } from 'vitest';
import { InProcessUserQuota } from '../../../src/limits/in-process-user-quota.js';

describe('InProcessUserQuota', () => {
  it('refuses messages over the per-minute quota, per user', async () => {
    const quota = new InProcessUserQuota(3);
    const results = [];
    for (let index = 0; index < 5; index++) results.push(await quota.take('discord:1'));
    expect(results).toEqual([true, true, true, false, false]);
    expect(await quota.take('discord:2')).toBe(true);
    await quota.close();
  });

  it('notifies a flooding user once per window', () => {
    const quota = new InProcessUserQuota(1, 60_000);
    expect(quota.shouldNotify('u', 0)).toBe(true);
    expect(quota.shouldNotify('u', 30_000)).toBe(false);
    expect(quota.shouldNotify('u', 61_000)).toBe(true);
    void quota.close();
  });
});
