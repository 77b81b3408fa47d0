import { describe, expect, it } from 'vitest';
import { belongsToSpace, checkConversation, isConversationKeyShape } from '../../../../../src/web/pages/knowledge/conversation-keys.js';

// Which conversations a base may be bound to from the page: its own space's, by the rule the knowledge store moves
// bindings by; on Discord (a channel id names no server) only a bot admin binds from the page.

describe('conversation keys', () => {
  it('takes the space itself and its topics, never a longer id that starts the same', () => {
    expect(belongsToSpace('telegram:-100555', 'telegram:-100555')).toBe(true);
    expect(belongsToSpace('telegram:-100555:7', 'telegram:-100555')).toBe(true);
    expect(belongsToSpace('telegram:-1005551', 'telegram:-100555')).toBe(false);
    expect(belongsToSpace('line:C123', 'telegram:-100555')).toBe(false);
  });

  it('refuses malformed keys', () => {
    for (const key of ['', 'telegram', ':x', 'telegram:', 'telegram:a b', 'telegram:\u0000', 'telegram:\u00a0', `telegram:${'1'.repeat(200)}`]) {
      expect(isConversationKeyShape(key)).toBe(false);
      expect(checkConversation(key, 'telegram:-100555', true)).toBe('malformed');
    }
    expect(isConversationKeyShape('telegram:-100555:7')).toBe(true);
  });

  it('binds across a Discord server only for a bot admin', () => {
    expect(checkConversation('telegram:-100777', 'telegram:-100555', true)).toBe('other-space');
    expect(checkConversation('discord:12345', 'discord:999', true)).toBe('ok');
    expect(checkConversation('discord:12345', 'discord:999', false)).toBe('space-unknown');
    expect(checkConversation('telegram:12345', 'discord:999', true)).toBe('other-space');
  });
});
