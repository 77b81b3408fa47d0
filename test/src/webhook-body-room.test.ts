import { describe, expect, it, vi } from 'vitest';
import { WebhookBodyRoom } from '../../src/webhook-body-room.js';

// The webhook gate alone: bodies and reserved bytes bounded, first come first served, a bounded waiting line with a
// time limit, and room handed back exactly once.

describe('WebhookBodyRoom', () => {
  it('lets bodies in while both the count and the bytes fit, and the next in line when room frees', async () => {
    const gate = new WebhookBodyRoom({ maxBodies: 2, maxBytes: 100, maxWaiting: 5, maxWaitMs: 60_000 });
    const first = await gate.enter(60);
    const second = await gate.enter(30);
    expect(first && second).toBeTruthy();
    let thirdIn = false;
    const third = gate.enter(50).then((release) => ((thirdIn = release !== undefined), release));
    // A small body behind it waits too: first come, first served.
    const fourth = gate.enter(1);
    expect(gate.usage()).toEqual({ bodies: 2, bytes: 90, waiting: 2 });
    second?.();
    second?.();
    await Promise.resolve();
    expect(thirdIn).toBe(false);
    first?.();
    (await third)?.();
    (await fourth)?.();
    expect(gate.usage()).toEqual({ bodies: 0, bytes: 0, waiting: 0 });
  });

  it('refuses at once when the line is full, and after maxWaitMs when no room came', async () => {
    vi.useFakeTimers();
    try {
      const gate = new WebhookBodyRoom({ maxBodies: 1, maxBytes: 100, maxWaiting: 1, maxWaitMs: 5_000 });
      const held = await gate.enter(10);
      const waiting = gate.enter(10);
      expect(await gate.enter(10)).toBeUndefined();
      await vi.advanceTimersByTimeAsync(5_000);
      expect(await waiting).toBeUndefined();
      expect(gate.usage()).toEqual({ bodies: 1, bytes: 10, waiting: 0 });
      held?.();
      // A body larger than all the bytes reserves them all, so it is never refused for ever.
      const huge = await gate.enter(1_000);
      expect(gate.usage()).toEqual({ bodies: 1, bytes: 100, waiting: 0 });
      huge?.();
    } finally {
      vi.useRealTimers();
    }
  });
});
