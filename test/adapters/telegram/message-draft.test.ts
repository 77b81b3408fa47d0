import { describe, expect, it } from 'vitest';
import { draftIdOf } from '../../../adapters/telegram/message-draft.js';

// The draft id of an answer: the inbound message's own id (stable across a restart), never 0.

describe('draftIdOf', () => {
  it('takes the message id of `<chat>:<message_id>`, and hashes any other shape to a non-zero 31-bit number', () => {
    expect(draftIdOf('501:4321')).toBe(4321);
    expect(draftIdOf('-1001234567890:77')).toBe(77);
    expect(draftIdOf('501:album-abc')).toBe(draftIdOf('501:album-abc'));
    for (const id of ['501:0', '', 'x', '501:album-abc']) {
      const draftId = draftIdOf(id);
      expect(draftId).toBeGreaterThan(0);
      expect(draftId).toBeLessThan(2 ** 31);
    }
  });
});
