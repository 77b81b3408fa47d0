import { describe, expect, it } from 'vitest';
import { createProcessSlots } from '../../../src/ocr/process-slots.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('createProcessSlots', () => {
  it('runs at most `limit` jobs at once, the rest in arrival order', async () => {
    const slots = createProcessSlots(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const results = gates.map((gate, index) =>
      slots.run(async () => {
        started.push(index);
        await gate.promise;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(slots.waiting).toBe(2);
    gates[1]?.resolve();
    await results[1];
    expect(started).toEqual([0, 1, 2]);
    gates[0]?.resolve();
    await results[0];
    expect(started).toEqual([0, 1, 2, 3]);
    gates[2]?.resolve();
    gates[3]?.resolve();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3]);
    expect(slots.running).toBe(0);
  });

  it('takes an aborted waiter out of the line without running it', async () => {
    const slots = createProcessSlots(1);
    const gate = deferred();
    const first = slots.run(() => gate.promise.then(() => 'first'));
    const controller = new AbortController();
    let ranSecond = false;
    const second = slots.run(async () => {
      ranSecond = true;
      return 'second';
    }, controller.signal);
    const third = slots.run(async () => 'third');
    expect(slots.waiting).toBe(2);
    controller.abort();
    expect(await second).toBe('cancelled');
    expect(slots.waiting).toBe(1);
    gate.resolve();
    expect(await first).toBe('first');
    expect(await third).toBe('third');
    expect(ranSecond).toBe(false);
  });

  it('frees the slot when a job throws, and refuses an already aborted signal', async () => {
    const slots = createProcessSlots(1);
    await expect(slots.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await slots.run(async () => 'next')).toBe('next');
    expect(await slots.run(async () => 'never', AbortSignal.abort())).toBe('cancelled');
  });
});
