import { describe, expect, it } from 'vitest';
import { SqliteInboundQueue } from '../../../src/queue/sqlite-inbound-queue.js';
import { silentLogger } from '../../../src/shared/log.js';
import { queuedMessage as message } from '../../support/queued-message.js';

// The queue's depth for /readyz, /status and /metrics: unfinished messages, per platform, and the oldest one's age.

describe('SqliteInboundQueue.stats', () => {
  it('counts unfinished messages per platform with the oldest age; finished ones leave the count', async () => {
    let now = Date.UTC(2026, 0, 1);
    const queue = new SqliteInboundQueue({ dataDir: ':memory:', dedupeTtlMs: 60_000, log: silentLogger(), now: () => now });
    expect(await queue.stats()).toEqual({ pending: 0, oldestPendingAgeSeconds: 0, byPlatform: {} });

    await queue.accept(message('1'));
    now += 30_000;
    await queue.accept({ ...message('2'), platform: 'line', conversationKey: 'line:group' });
    await queue.accept(message('3'));
    now += 15_000;
    expect(await queue.stats()).toEqual({
      pending: 3,
      oldestPendingAgeSeconds: 45,
      byPlatform: { telegram: { pending: 2, oldestPendingAgeSeconds: 45 }, line: { pending: 1, oldestPendingAgeSeconds: 15 } },
    });

    // Answered but not yet delivered still counts; done does not.
    const first = await queue.next(message('1').conversationKey);
    if (!first) throw new Error('no message');
    await queue.storeReply(first.sequence, 0, { text: 'ok', files: [] }, true);
    expect((await queue.stats()).pending).toBe(3);
    await queue.finish(first.sequence, 'done');
    expect(await queue.stats()).toMatchObject({
      pending: 2,
      oldestPendingAgeSeconds: 15,
      byPlatform: { telegram: { pending: 1, oldestPendingAgeSeconds: 15 } },
    });
    queue.close();
  });
});
