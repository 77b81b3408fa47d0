import { describe, expect, it } from 'vitest';
import { parseCommand, splitWords } from '../../../src/commands/parse.js';

describe('parseCommand', () => {
  it.each([
    ['/help', 'help', ''],
    ['  /HELP  ', 'help', ''],
    ['/kb list', 'kb', 'list'],
    ['/kb@Saeng_Bot create faq คำถามที่พบบ่อย', 'kb', 'create faq คำถามที่พบบ่อย'],
    ['/kb add faq\nบรรทัดแรก\nบรรทัดสอง', 'kb', 'add faq\nบรรทัดแรก\nบรรทัดสอง'],
    ['/remove-doc x', 'remove-doc', 'x'],
  ])('%j → /%s', (text, name, rest) => {
    const parsed = parseCommand(text, 'saeng_bot');
    expect(parsed).toMatchObject({ kind: 'command', command: { name, rest } });
  });

  it.each(['hello', '/ not', '//kb', 'ask /help', '/123', '/help,please'])('%j is not a command', (text) => {
    expect(parseCommand(text, 'saeng_bot').kind).toBe('not-a-command');
  });

  it('leaves another bot its commands', () => {
    expect(parseCommand('/help@other_bot', 'saeng_bot').kind).toBe('other-bot');
  });

  it('accepts any @name when the bot name is unknown', () => {
    expect(parseCommand('/help@whoever').kind).toBe('command');
  });
});

describe('splitWords', () => {
  it('keeps quoted words together', () => {
    expect(splitWords('create "Staff FAQ" “คู่มือ พนักงาน”  x')).toEqual(['create', 'Staff FAQ', 'คู่มือ พนักงาน', 'x']);
    expect(splitWords('')).toEqual([]);
    expect(splitWords('a ""')).toEqual(['a', '']);
  });
});
