import { describe, expect, it } from 'vitest';
import { LiveMessage, type LiveCallOutcome, type LiveMessageSender } from '../../../adapters/common/live-message.js';
import { ManualScheduler } from '../../support/manual-scheduler.js';

// The paced live message on a hand-moved clock: posted once then edited, updates collapsed into the newest, a
// rate-limit answer honoured, a failure reported and paced, a deleted message posted again, an earlier one edited.

/** Lets the promise callbacks queued so far run (no time passes: the scheduler is manual). */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Recorded {
  calls: string[];
  errors: unknown[];
  remembered: number[];
  /** The next outcomes of `edit` (else 'shown'); an Error is thrown. */
  editOutcomes: (LiveCallOutcome | Error)[];
  sendOutcomes: ({ retryAfterMs: number } | Error)[];
}

function recordingSender(): { sender: LiveMessageSender<number>; recorded: Recorded } {
  const recorded: Recorded = { calls: [], errors: [], remembered: [], editOutcomes: [], sendOutcomes: [] };
  let nextId = 100;
  const sender: LiveMessageSender<number> = {
    send: (text) => {
      recorded.calls.push(`send ${text}`);
      const outcome = recorded.sendOutcomes.shift();
      if (outcome instanceof Error) return Promise.reject(outcome);
      return Promise.resolve(outcome ?? { id: (nextId += 1) });
    },
    edit: (id, text) => {
      recorded.calls.push(`edit ${id} ${text}`);
      const outcome = recorded.editOutcomes.shift();
      if (outcome instanceof Error) return Promise.reject(outcome);
      return Promise.resolve(outcome ?? 'shown');
    },
    onError: (error) => void recorded.errors.push(error),
  };
  return { sender, recorded };
}

function live(options: { earlier?: number } = {}) {
  const scheduler = new ManualScheduler();
  const { sender, recorded } = recordingSender();
  const message = new LiveMessage<number>({
    sender,
    scheduler,
    minIntervalMs: 1000,
    ...options,
    remember: (id) => {
      recorded.remembered.push(id);
      return Promise.resolve();
    },
  });
  return { message, scheduler, recorded };
}

describe('LiveMessage', () => {
  it('posts on the first update, remembers the id, then edits at most once per interval with the newest text', async () => {
    const { message, scheduler, recorded } = live();
    message.update('ก');
    await settle();
    expect(recorded.calls).toEqual(['send ก']);
    expect(recorded.remembered).toEqual([101]);
    message.update('กข');
    message.update('กขค');
    await settle();
    expect(recorded.calls).toHaveLength(1);
    scheduler.advance(999);
    await settle();
    expect(recorded.calls).toHaveLength(1);
    scheduler.advance(1);
    await settle();
    expect(recorded.calls).toEqual(['send ก', 'edit 101 กขค']);
    expect(await message.end()).toBe(101);
  });

  it('waits as long as a rate-limit answer asked, then shows the newest text', async () => {
    const { message, scheduler, recorded } = live();
    message.update('หนึ่ง');
    await settle();
    recorded.editOutcomes.push({ retryAfterMs: 3000 });
    scheduler.advance(1000);
    message.update('สอง');
    await settle();
    expect(recorded.calls).toEqual(['send หนึ่ง', 'edit 101 สอง']);
    scheduler.advance(2999);
    await settle();
    expect(recorded.calls).toHaveLength(2);
    scheduler.advance(1);
    await settle();
    expect(recorded.calls).toEqual(['send หนึ่ง', 'edit 101 สอง', 'edit 101 สอง']);
  });

  it('reports a failure without throwing, paces the next call after it, and lets the next update try again', async () => {
    const { message, scheduler, recorded } = live();
    const broken = new Error('connection reset');
    recorded.sendOutcomes.push(broken);
    message.update('ก');
    await settle();
    expect(recorded.errors).toEqual([broken]);
    message.update('กข');
    await settle();
    expect(recorded.calls).toEqual(['send ก']);
    scheduler.advance(1000);
    await settle();
    expect(recorded.calls).toEqual(['send ก', 'send กข']);
  });

  it('posts a new message when the live one was deleted', async () => {
    const { message, scheduler, recorded } = live();
    message.update('ก');
    await settle();
    recorded.editOutcomes.push('gone');
    message.update('กข');
    scheduler.advance(1000);
    await settle();
    expect(recorded.calls).toEqual(['send ก', 'edit 101 กข', 'send กข']);
    expect(recorded.remembered).toEqual([101, 102]);
    expect(message.messageId()).toBe(102);
  });

  it('edits the message an earlier attempt left instead of posting', async () => {
    const { message, recorded } = live({ earlier: 77 });
    message.update('ต่อ');
    await settle();
    expect(recorded.calls).toEqual(['edit 77 ต่อ']);
    expect(recorded.remembered).toEqual([]);
  });

  it('shows nothing after end, waits for the call on its way, and leaves no timer behind', async () => {
    const { message, scheduler, recorded } = live();
    message.update('ก');
    await settle();
    message.update('กข');
    expect(await message.end()).toBe(101);
    message.update('กขค');
    scheduler.advance(5000);
    await settle();
    expect(recorded.calls).toEqual(['send ก']);
    expect(scheduler.pending()).toBe(0);
  });
});
