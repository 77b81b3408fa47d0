import { describe, expect, it } from 'vitest';
import { admit } from '../../../src/pipeline/admission.js';
import type { InboundMessage } from '../../../src/shared/types.js';
import { inboundMessage } from '../../support/inbound-message.js';

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
});
