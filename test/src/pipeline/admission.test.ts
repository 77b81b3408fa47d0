import { describe, expect, it } from 'vitest';
import { admit, type GroupTrigger } from '../../../src/pipeline/admission.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import { inboundMessage, photo } from '../../support/inbound-message.js';

const message = (overrides: Partial<InboundMessage>): InboundMessage => inboundMessage({ text: 'สวัสดี', ...overrides });

const known = new Set(['help', 'reset', 'status', 'kb']);

describe('admission', () => {
  it.each([
    ['direct chat, plain text', { chatKind: 'direct' as const }, 'dispatch', 'direct'],
    ['group, mention', { mentionsBot: true }, 'dispatch', 'mention'],
    ['group, reply to the bot', { repliesToBot: true }, 'dispatch', 'reply-to-bot'],
    ['group, plain chatter', {}, 'ignore', 'group-not-addressed'],
    ['group, known command without mention', { text: '/help' }, 'command', 'command'],
    ['group, command addressed to us', { text: '/status@saeng_bot' }, 'command', 'command'],
    ['group, command for another bot', { text: '/status@other_bot' }, 'ignore', 'command-for-another-bot'],
    ['group, unknown bare command', { text: '/weather' }, 'ignore', 'unknown-command'],
    ['group, unknown command with mention', { text: '/weather', mentionsBot: true }, 'command', 'command'],
    ['direct, unknown command', { text: '/weather', chatKind: 'direct' as const }, 'command', 'command'],
    ['group, mention with nothing else (the image before it may be the question)', { text: '  ', mentionsBot: true }, 'dispatch', 'mention'],
    ['group, nothing at all, unaddressed', { text: ' ' }, 'ignore', 'empty'],
    [
      'direct, a file alone (kept for /kb add)',
      {
        text: '',
        chatKind: 'direct' as const,
        attachments: [{ kind: 'file' as const, mime: 'application/pdf', name: 'a.pdf', size: 1, reference: { kind: 'platform-file' as const, id: 'doc-1' } }],
      },
      'ignore',
      'file-only',
    ],
    [
      'direct, image only',
      {
        text: '',
        chatKind: 'direct' as const,
        attachments: [{ kind: 'image' as const, mime: 'image/png', name: 'a.png', size: 1, reference: { kind: 'platform-file' as const, id: 'photo-1' } }],
      },
      'dispatch',
      'direct',
    ],
  ])('%s', (_name, overrides, kind, reason) => {
    const admission = admit(message(overrides), { botUsername: 'saeng_bot', knownCommands: known });
    expect(admission.kind).toBe(kind);
    expect(admission.reason).toBe(reason);
  });

  it.each([
    ['direct, a voice note', { chatKind: 'direct' as const }, 'unreadable', 'direct'],
    ['group, a sticker replying to the bot', { repliesToBot: true }, 'unreadable', 'reply-to-bot'],
    ['group, a video whose caption is only the mention', { mentionsBot: true, text: '  ' }, 'unreadable', 'mention'],
    ['group, a sticker to nobody (silent as before)', {}, 'ignore', 'empty'],
    ['group, a captioned video to nobody', { text: 'ดูคลิปนี้สิ' }, 'ignore', 'group-not-addressed'],
    ['direct, a voice note with a caption (the caption is the question)', { chatKind: 'direct' as const, text: 'สรุปให้หน่อย' }, 'dispatch', 'direct'],
    ['group, a mentioned video whose caption is a command', { mentionsBot: true, text: '/help' }, 'command', 'command'],
  ])('what the bot cannot read: %s', (_name, overrides, kind, reason) => {
    const admission = admit(message({ text: '', unreadable: 'voice', ...overrides }), { botUsername: 'saeng_bot', knownCommands: known });
    expect(admission.kind).toBe(kind);
    expect(admission.reason).toBe(reason);
  });

  it('names what could not be read', () => {
    const admission = admit(message({ text: '', chatKind: 'direct', unreadable: 'sticker' }), { knownCommands: known });
    expect(admission).toEqual({ kind: 'unreadable', reason: 'direct', what: 'sticker' });
  });

  it('hands the parsed command over', () => {
    const admission = admit(message({ text: '/kb@saeng_bot add "Staff FAQ" now' }), { botUsername: 'saeng_bot', knownCommands: known });
    expect(admission).toEqual({ kind: 'command', reason: 'command', command: { name: 'kb', rest: 'add "Staff FAQ" now', words: ['add', 'Staff FAQ', 'now'] } });
  });

  const pdf = { kind: 'file' as const, mime: 'application/pdf', name: 'a.pdf', size: 1, reference: { kind: 'platform-file' as const, id: 'doc-1' } };
  const everyMessage: GroupTrigger = { mode: 'every-message' };
  const byName: GroupTrigger = { mode: 'name', names: ['แสง', 'saeng'] };

  it.each([
    ['every message, plain chatter', everyMessage, {}, 'dispatch', 'every-message'],
    ['every message, an image alone', everyMessage, { text: '', attachments: [photo('p1')] }, 'dispatch', 'every-message'],
    ['every message, a voice note (it is for the bot here)', everyMessage, { text: '', unreadable: 'voice' as const }, 'unreadable', 'every-message'],
    ['every message, a mention is still a mention', everyMessage, { mentionsBot: true }, 'dispatch', 'mention'],
    ['every message, a reply to the bot is still one', everyMessage, { repliesToBot: true }, 'dispatch', 'reply-to-bot'],
    ['every message, nothing at all', everyMessage, { text: ' ' }, 'ignore', 'empty'],
    ['every message, a file alone', everyMessage, { text: '', attachments: [pdf] }, 'ignore', 'file-only'],
    ['every message, a known command', everyMessage, { text: '/help' }, 'command', 'command'],
    ['every message, an unknown bare command (another bot’s)', everyMessage, { text: '/weather' }, 'ignore', 'unknown-command'],
    ['every message, a command for another bot', everyMessage, { text: '/status@other_bot' }, 'ignore', 'command-for-another-bot'],
    ['every message, a direct chat is still direct', everyMessage, { chatKind: 'direct' as const }, 'dispatch', 'direct'],
    ['name, called at the start', byName, { text: 'แสง ช่วยสรุปหน่อย' }, 'dispatch', 'name'],
    ['name, called with an honorific', byName, { text: 'พี่แสงครับ ราคาทองวันนี้' }, 'dispatch', 'name'],
    ['name, called in English', byName, { text: 'Saeng, what time is it?' }, 'dispatch', 'name'],
    ['name, in the caption of a voice note', byName, { text: 'แสง สรุปให้หน่อย', unreadable: 'voice' as const }, 'dispatch', 'name'],
    ['name, light is not a call', byName, { text: 'แสงแดดวันนี้แรงมาก' }, 'ignore', 'group-not-addressed'],
    ['name, in a link is not a call', byName, { text: 'https://example.com/saeng' }, 'ignore', 'group-not-addressed'],
    ['name, plain chatter', byName, {}, 'ignore', 'group-not-addressed'],
    ['name, a mention that also names it is a mention', byName, { text: 'แสง ช่วยหน่อย', mentionsBot: true }, 'dispatch', 'mention'],
    ['name, a voice note with no words', byName, { text: '', unreadable: 'voice' as const }, 'ignore', 'empty'],
    ['name, a file alone', byName, { text: '', attachments: [pdf] }, 'ignore', 'file-only'],
    ['name, an unknown command that names it', byName, { text: '/weather แสง' }, 'ignore', 'unknown-command'],
    ['name, another bot’s command that names it', byName, { text: '/ask@other_bot แสง ช่วยหน่อย' }, 'ignore', 'command-for-another-bot'],
    ['name, a known command is a command', byName, { text: '/help แสง' }, 'command', 'command'],
    ['name, a direct chat is still direct', byName, { text: 'แสงสว่าง', chatKind: 'direct' as const }, 'dispatch', 'direct'],
    ['no trigger, naming it is not enough', undefined, { text: 'แสง ช่วยสรุปหน่อย' }, 'ignore', 'group-not-addressed'],
    ['no trigger, an image alone', undefined, { text: '', attachments: [photo('p1')] }, 'ignore', 'group-not-addressed'],
  ])('a group trigger: %s', (_name, trigger, overrides, kind, reason) => {
    const admission = admit(message(overrides), { botUsername: 'saeng_bot', knownCommands: known, ...(trigger ? { trigger } : {}) });
    expect(admission.kind).toBe(kind);
    expect(admission.reason).toBe(reason);
  });

  it('names what could not be read under every message, but a sticker is a reaction, not a question', () => {
    const voice = admit(message({ text: '', unreadable: 'voice' }), { knownCommands: known, trigger: { mode: 'every-message' } });
    expect(voice).toEqual({ kind: 'unreadable', reason: 'every-message', what: 'voice' });
    const sticker = admit(message({ text: '', unreadable: 'sticker' }), { knownCommands: known, trigger: { mode: 'every-message' } });
    expect(sticker).toEqual({ kind: 'ignore', reason: 'empty' });
  });
});
