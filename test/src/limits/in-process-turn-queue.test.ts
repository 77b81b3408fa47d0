import { describe, expect, it } from 'vitest';
import { InProcessTurnQueue } from '../../../src/limits/in-process-turn-queue.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}
const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('InProcessTurnQueue', () => {
  it('runs one turn at a time per conversation, in arrival order', async () => {
    const queue = new InProcessTurnQueue(4);
    const events: string[] = [];
    const gates = [deferred(), deferred(), deferred()];
    const jobs = gates.map((gate, index) =>
      queue.run('telegram:1', async () => {
        events.push(`start ${index}`);
        await gate.promise;
        events.push(`end ${index}`);
        return index;
      }),
    );
    await flush();
    expect(events).toEqual(['start 0']);
    gates[2]?.resolve();
    gates[1]?.resolve();
    await flush();
    expect(events).toEqual(['start 0']);
    gates[0]?.resolve();
    expect(await Promise.all(jobs)).toEqual([0, 1, 2]);
    expect(events).toEqual(['start 0', 'end 0', 'start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('runs different conversations concurrently up to the limit', async () => {
    const queue = new InProcessTurnQueue(2);
    const running = new Set<string>();
    let peak = 0;
    const gates = new Map(['a', 'b', 'c'].map((key) => [key, deferred()]));
    const jobs = [...gates.entries()].map(([key, gate]) =>
      queue.run(`line:${key}`, async () => {
        running.add(key);
        peak = Math.max(peak, running.size);
        await gate.promise;
        running.delete(key);
      }),
    );
    await flush();
    expect([...running].sort()).toEqual(['a', 'b']);
    gates.get('a')?.resolve();
    await flush();
    await flush();
    expect([...running].sort()).toEqual(['b', 'c']);
    gates.get('b')?.resolve();
    gates.get('c')?.resolve();
    await Promise.all(jobs);
    expect(peak).toBe(2);
    expect(queue.busyConversations).toBe(0);
  });

  it('keeps going after a failed turn', async () => {
    const queue = new InProcessTurnQueue(1);
    const failed = queue.run('x', async () => {
      throw new Error('boom');
    });
    await expect(failed).rejects.toThrow('boom');
    await expect(queue.run('x', async () => 'next')).resolves.toBe('next');
  });
});
