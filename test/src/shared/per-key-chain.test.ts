import { describe, expect, it } from 'vitest';
import { PerKeyChain } from '../../../src/shared/per-key-chain.js';

function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('PerKeyChain', () => {
  it('runs tasks of one key one at a time, in order, and other keys alongside', async () => {
    const chain = new PerKeyChain();
    const gate = deferred();
    const events: string[] = [];
    const first = chain.run('a', async () => {
      events.push('a1 start');
      await gate.promise;
      events.push('a1 end');
    });
    const second = chain.run('a', async () => {
      events.push('a2');
    });
    await chain.run('b', async () => {
      events.push('b');
    });
    expect(events).toEqual(['a1 start', 'b']);
    gate.resolve();
    await Promise.all([first, second]);
    expect(events).toEqual(['a1 start', 'b', 'a1 end', 'a2']);
  });

  it('goes on after a failed task and forgets idle keys', async () => {
    const chain = new PerKeyChain();
    const failing = chain.run('a', () => Promise.reject(new Error('boom')));
    const next = chain.run('a', async () => 'ran');
    await expect(failing).rejects.toThrow('boom');
    expect(await next).toBe('ran');
    await new Promise<void>((resolve) => setImmediate(resolve));
    expect(chain.pendingKeys).toBe(0);
  });
});
