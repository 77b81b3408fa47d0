import { describe, expect, it } from 'vitest';
import type { ModelStep } from '../../agent/model-step.js';
import { isFinalAnswer, mayCallTools, reachedStepLimit, repeatBlocked, streamWasCut } from '../../agent/stop-predicates.js';
import { turnRecord } from '../support/turn-record.js';

const step = (overrides: Partial<ModelStep> = {}): ModelStep => ({ text: 'คำตอบ', calls: [], cutForRepetition: false, ...overrides });
const call = { id: 'call_1', name: 'lookup', argumentsText: '{}' };

describe('the turn loop stop predicates', () => {
  it('offers tools while steps are left, never after a blocked repeat or to a model without tools', () => {
    const record = turnRecord();
    expect(mayCallTools({ toolsOffered: true, step: 1, budget: 2, record })).toBe(true);
    expect(mayCallTools({ toolsOffered: true, step: 2, budget: 2, record })).toBe(false);
    expect(mayCallTools({ toolsOffered: false, step: 1, budget: 2, record })).toBe(false);
    const blocked = turnRecord({ stopReason: 'repeat-call' });
    expect(repeatBlocked(blocked)).toBe(true);
    expect(mayCallTools({ toolsOffered: true, step: 1, budget: 5, record: blocked })).toBe(false);
  });

  it('ends on a cut stream, and on an answer without calls or with calls that were not allowed', () => {
    expect(streamWasCut(step({ cutForRepetition: true }))).toBe(true);
    expect(streamWasCut(step())).toBe(false);
    expect(isFinalAnswer(step(), true)).toBe(true);
    expect(isFinalAnswer(step({ calls: [call] }), true)).toBe(false);
    expect(isFinalAnswer(step({ calls: [call] }), false)).toBe(true);
  });

  it('reaches the step limit only with tools on, the budget spent and no answer text', () => {
    const spent = { toolsOffered: true, toolsAllowed: false, step: 3, budget: 3, answer: '' };
    expect(reachedStepLimit(spent)).toBe(true);
    expect(reachedStepLimit({ ...spent, answer: 'คำตอบ' })).toBe(false);
    expect(reachedStepLimit({ ...spent, toolsOffered: false })).toBe(false);
    expect(reachedStepLimit({ ...spent, step: 1 })).toBe(false);
  });
});
