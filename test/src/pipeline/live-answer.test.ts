import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTurnLive } from '../../../src/pipeline/live-answer.js';
import type { LiveAnswer, Responder } from '../../../src/shared/channel.js';
import { memoryLog } from '../../support/memory-log.js';

// The router's side of a live answer (src/pipeline/live-answer.ts): the outbound DLP has the last word on a preview,
// tool steps show as statuses, and a live answer that never settles does not hold the final reply back.

afterEach(() => vi.useRealTimers());

function responderWith(live: LiveAnswer): Responder {
  return { send: async () => undefined, live: () => live };
}

describe('startTurnLive', () => {
  it('shows clean previews, stops at one the outbound DLP refuses, and shows statuses after a tool', () => {
    const shown: string[] = [];
    const statuses: string[] = [];
    const live: LiveAnswer = { show: (text) => void shown.push(text), status: (step) => void statuses.push(step.kind), end: async () => undefined };
    const { log } = memoryLog('warn');
    const turn = startTurnLive({
      responder: responderWith(live),
      start: { remember: async () => undefined },
      allows: (text) => !text.includes('secret'),
      log,
      logBase: {},
    });
    turn?.step({ kind: 'model' });
    turn?.preview('คำตอบ');
    turn?.preview('คำตอบ secret');
    turn?.preview('คำตอบ secret ต่อ');
    turn?.step({ kind: 'tool', tool: 'web_search' });
    turn?.step({ kind: 'model' });
    expect(shown).toEqual(['คำตอบ']);
    expect(statuses).toEqual(['tool', 'model']);
  });

  it('lets the final reply go after the bound when the live answer never settles', async () => {
    vi.useFakeTimers();
    const live: LiveAnswer = { show: () => undefined, status: () => undefined, end: () => new Promise<void>(() => undefined) };
    const { log, records } = memoryLog('warn');
    const turn = startTurnLive({
      responder: responderWith(live),
      start: { remember: async () => undefined },
      allows: () => true,
      log,
      logBase: {},
    });
    const ended = turn?.end();
    await vi.advanceTimersByTimeAsync(15_000);
    await expect(ended).resolves.toBeUndefined();
    expect(records.some((record) => String(record.msg).includes('did not settle'))).toBe(true);
  });
});
