import { describe, expect, it } from 'vitest';
import { asksForCatchUp, summaryCallWords } from '../../../src/catchup/summary-call.js';
import { parseSummaryRequest } from '../../../src/catchup/summary-request.js';
import { discordMessageLink } from '../../../adapters/discord/message-link.js';
import { telegramMessageLink } from '../../../adapters/telegram/message-link.js';

// What /summary's words ask for, which messages ask for a catch-up in words, and the message links a summary points at.

describe('/summary words', () => {
  it.each([
    [[], { kind: 'summary', span: { kind: 'since-me' } }],
    [['วันนี้'], { kind: 'summary', span: { kind: 'today' } }],
    [['today'], { kind: 'summary', span: { kind: 'today' } }],
    [['3', 'ชม.'], { kind: 'summary', span: { kind: 'hours', hours: 3 } }],
    [['๕', 'ชั่วโมง'], { kind: 'summary', span: { kind: 'hours', hours: 5 } }],
    [['2h'], { kind: 'summary', span: { kind: 'hours', hours: 2 } }],
    [['12'], { kind: 'summary', span: { kind: 'hours', hours: 12 } }],
    [['0', 'ชม.'], { kind: 'invalid', problem: 'hours' }],
    [['9999h'], { kind: 'invalid', problem: 'hours' }],
    [['on'], { kind: 'on' }],
    [['เปิด', '14', 'วัน'], { kind: 'on', days: 14 }],
    [['on', '31'], { kind: 'invalid', problem: 'days' }],
    [['off'], { kind: 'off' }],
    [['ปิด'], { kind: 'off' }],
    [['help'], { kind: 'help' }],
    [['banana'], { kind: 'invalid', problem: 'unknown' }],
  ])('%j', (words, expected) => {
    expect(parseSummaryRequest(words, 30)).toEqual(expected);
  });
});

describe('a catch-up asked for in words', () => {
  it.each([
    ['สรุปให้หน่อยว่าคุยอะไรกัน', []],
    ['ช่วยสรุปแชทวันนี้ให้หน่อย', ['today']],
    ['สรุปที่คุยกัน 3 ชั่วโมงที่ผ่านมา', ['3h']],
    ['สรุปที่คุยกัน ๒ ชม. ให้หน่อย', ['2h']],
    ['เมื่อกี้พลาดอะไรไปบ้าง', []],
    ['what did I miss?', []],
    ['Can you summarize the chat from today?', ['today']],
    ['catch me up please', []],
  ])('%s → /summary %j', (text, words) => {
    expect(summaryCallWords({ text })).toEqual(words);
  });

  it.each(['สรุปเอกสารนี้ให้หน่อย', 'สรุปข่าววันนี้', 'คุยเรื่องงบประมาณกันหน่อย', 'summarize this article', 'what is the capital of France?'])('%s is a question', (text) => {
    expect(asksForCatchUp(text)).toBe(false);
  });

  it('a summary of a quoted message is about that message', () => {
    expect(summaryCallWords({ text: 'สรุปข้อความในกลุ่มนี้ให้หน่อย', quoted: { state: 'unknown' } })).toBeUndefined();
  });
});

describe('message links', () => {
  const group = { chatKind: 'group' as const };
  it('Telegram: supergroups only, with the topic of a forum message', () => {
    expect(
      telegramMessageLink({ ...group, spaceKey: 'telegram:-1001234567890', conversationKey: 'telegram:-1001234567890', messageId: '-1001234567890:42' }),
    ).toBe('https://t.me/c/1234567890/42');
    expect(
      telegramMessageLink({ ...group, spaceKey: 'telegram:-1001234567890', conversationKey: 'telegram:-1001234567890:7', messageId: '-1001234567890:42' }),
    ).toBe('https://t.me/c/1234567890/7/42');
    expect(telegramMessageLink({ ...group, spaceKey: 'telegram:-4012345', conversationKey: 'telegram:-4012345', messageId: '-4012345:42' })).toBeUndefined();
    expect(telegramMessageLink({ chatKind: 'direct', spaceKey: 'telegram:42', conversationKey: 'telegram:42', messageId: '42:1' })).toBeUndefined();
  });

  it('Discord: server channels', () => {
    expect(discordMessageLink({ ...group, spaceKey: 'discord:111', conversationKey: 'discord:222', messageId: '222:333' })).toBe(
      'https://discord.com/channels/111/222/333',
    );
    expect(discordMessageLink({ chatKind: 'direct', spaceKey: 'discord:user:9', conversationKey: 'discord:5', messageId: '5:6' })).toBeUndefined();
  });
});
