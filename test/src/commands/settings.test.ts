import { describe, expect, it } from 'vitest';
import { Keyv } from 'keyv';
import type { CommandContext } from '../../../src/commands/command.js';
import { parseCommand } from '../../../src/commands/parse.js';
import { createSettingsCommand } from '../../../src/commands/settings.js';
import { parseSettingsRequest } from '../../../src/commands/settings/settings-request.js';
import { SpaceSettingsStore } from '../../../src/settings/space-settings-store.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { InboundMessage, Language } from '../../../src/shared/types.js';
import { inboundMessage } from '../../support/inbound-message.js';

// /settings: who may change what, what is stored, and what the reply says — in Thai first.

const defaults = { language: 'th' as const, names: ['แสง', 'saeng'], groupContext: 10, quotaPerMinute: 6, streams: () => true };
const fakeToken = `ghp_${'a1B2c3D4e5'.repeat(3)}XyZ789`;

function setup() {
  const settings = new SpaceSettingsStore(new Keyv());
  const command = createSettingsCommand({
    store: settings,
    defaults,
    credentialKinds: (text) => (text.includes('ghp_') ? ['github-token'] : []),
    timeZone: 'Asia/Bangkok',
    readsAllGroupMessages: (platform) => platform !== 'telegram',
  });
  const run = async (text: string, message: Partial<InboundMessage> = {}, options: { globalAdmin?: boolean; language?: Language } = {}) => {
    const parsed = parseCommand(text, undefined);
    if (parsed.kind !== 'command') throw new Error(`not a command: ${text}`);
    const context: CommandContext = {
      message: inboundMessage({ text, ...message }),
      language: options.language ?? 'th',
      isGlobalAdmin: options.globalAdmin ?? false,
      log: silentLogger(),
      now: () => new Date(Date.UTC(2026, 11, 7, 3, 0)),
      progress: () => undefined,
      download: async () => new Uint8Array(),
    };
    return (await command.run(parsed.command, context)).text;
  };
  return { settings, run };
}

const admin = { sender: { id: '7', name: 'Admin', isPlatformAdmin: true } };

describe('/settings requests', () => {
  it.each([
    ['/settings', { kind: 'show' }],
    ['/settings language EN', { kind: 'change', topic: 'language', patch: { language: 'en' } }],
    ['/settings ภาษา ไทย', { kind: 'change', topic: 'language', patch: { language: 'th' } }],
    ['/settings language follow', { kind: 'change', topic: 'language', patch: { language: 'follow' } }],
    ['/settings language default', { kind: 'change', topic: 'language', patch: { language: null } }],
    ['/settings context ๕', { kind: 'change', topic: 'context', patch: { groupContext: 5 } }],
    ['/settings quota 3', { kind: 'change', topic: 'quota', patch: { quotaPerMinute: 3 } }],
    ['/settings streaming ปิด', { kind: 'change', topic: 'streaming', patch: { streaming: false } }],
    ['/settings quotes on', { kind: 'change', topic: 'quotes', patch: { quotes: true } }],
    ['/settings trigger name แสง พี่แสง', { kind: 'change', topic: 'trigger', patch: { trigger: 'name', names: ['แสง', 'พี่แสง'] } }],
    ['/settings trigger all', { kind: 'change', topic: 'trigger', patch: { trigger: 'every-message', names: null } }],
    ['/settings instructions ตอบสั้น ๆ\nใช้ภาษาสุภาพ', { kind: 'change', topic: 'instructions', patch: { instructions: 'ตอบสั้น ๆ\nใช้ภาษาสุภาพ' } }],
    ['/settings instructions clear', { kind: 'change', topic: 'instructions', patch: { instructions: null } }],
    ['/settings reset', { kind: 'reset' }],
  ])('%s', (text, expected) => {
    const parsed = parseCommand(text, undefined);
    if (parsed.kind !== 'command') throw new Error('not a command');
    expect(parseSettingsRequest(parsed.command)).toEqual(expected);
  });

  it.each([
    '/settings colour red',
    '/settings language jp',
    '/settings context 51',
    '/settings quota 0',
    '/settings quota 2.5',
    '/settings streaming maybe',
    '/settings instructions',
  ])('%s is refused with what to type', (text) => {
    const parsed = parseCommand(text, undefined);
    if (parsed.kind !== 'command') throw new Error('not a command');
    expect(parseSettingsRequest(parsed.command).kind).toBe('invalid');
  });
});

describe('/settings', () => {
  it('shows every setting with its default to a group admin, in Thai', async () => {
    const { run } = setup();
    const text = await run('/settings', admin);
    expect(text).toContain('การตั้งค่าของกลุ่มนี้');
    expect(text).toContain('- ภาษา: ไทย (ค่าเริ่มต้น)');
    expect(text).toContain('- การเรียกบอทในกลุ่ม: แท็กหรือตอบกลับข้อความของบอท (ค่าเริ่มต้น)');
    expect(text).toContain('- โควตาต่อผู้ใช้: 6 ข้อความต่อนาที (ค่าเริ่มต้น)');
    expect(text).toContain('- คำแนะนำเพิ่มเติมสำหรับบอท: ไม่มี');
  });

  it('refuses a member in Thai and changes nothing; a LINE group names ADMIN_IDS and /whoami', async () => {
    const { run, settings } = setup();
    expect(await run('/settings language en')).toContain('ใช้ได้เฉพาะผู้ดูแลของกลุ่มนี้หรือผู้ดูแลระบบ');
    expect(await run('/settings', { platform: 'line', spaceKey: 'line:C1', conversationKey: 'line:C1' })).toContain('/whoami');
    expect(await run('/settings language en', {}, { language: 'en' })).toContain('only for the admins');
    expect(await settings.get('telegram:-100')).toEqual({});
  });

  it('lets a group admin change a setting, says so, and records who and when', async () => {
    const { run, settings } = setup();
    const text = await run('/settings streaming off', admin);
    expect(text).toContain('บันทึกแล้ว');
    expect(text).toContain('- แสดงคำตอบระหว่างเขียน: ปิด');
    expect(text).toContain('แก้ไขล่าสุดโดย `telegram:7` เมื่อ 7 ธ.ค. 10:00 น.');
    // A change of language is confirmed in the new language; going back to the default, in the default.
    const english = await run('/settings language en', admin);
    expect(english).toContain('Saved.');
    expect(english).toContain('- Language: English');
    expect(english).toContain('Last changed by `telegram:7` on 7 Dec 10:00');
    expect(await settings.get('telegram:-100')).toMatchObject({ language: 'en', streaming: false, updatedBy: 'telegram:7' });
    expect(await run('/settings language default', admin, { language: 'en' })).toContain('- ภาษา: ไทย (ค่าเริ่มต้น)');
  });

  it('lets the owner of a private chat set it for themselves, but not group-only settings', async () => {
    const { run, settings } = setup();
    const direct = { chatKind: 'direct' as const, conversationKey: 'telegram:42', spaceKey: 'telegram:42' };
    expect(await run('/settings language en', direct)).toContain('Settings of this private chat');
    expect(await settings.get('telegram:42')).toMatchObject({ language: 'en' });
    expect(await run('/settings trigger every-message', direct)).toContain('ใช้ได้เฉพาะในกลุ่ม');
    expect(await run('/settings context 3', direct)).toContain('ใช้ได้เฉพาะในกลุ่ม');
  });

  it('lets a group admin lower the quota but only a bot admin raise it', async () => {
    const { run, settings } = setup();
    expect(await run('/settings quota 3', admin)).toContain('บันทึกแล้ว');
    expect(await run('/settings quota 20', admin)).toContain('ผู้ดูแลระบบของบอท');
    expect(await settings.get('telegram:-100')).toMatchObject({ quotaPerMinute: 3 });
    expect(await run('/settings quota 20', {}, { globalAdmin: true })).toContain('บันทึกแล้ว');
    expect(await settings.get('telegram:-100')).toMatchObject({ quotaPerMinute: 20 });
  });

  it('never stores instructions that carry a credential', async () => {
    const { run, settings } = setup();
    const text = await run(`/settings instructions ใช้โทเค็น ${fakeToken} เวลาเรียก API`, admin);
    expect(text).toContain('ไม่ได้บันทึก');
    expect(text).not.toContain(fakeToken);
    expect(await settings.get('telegram:-100')).toEqual({});
  });

  it('keeps instructions as typed (source markers neutralized) and shows them to admins', async () => {
    const { run, settings } = setup();
    await run('/settings instructions ตอบสั้น ๆ ลงท้ายด้วย "ครับ"', admin);
    expect((await settings.get('telegram:-100')).instructions).toBe('ตอบสั้น ๆ ลงท้ายด้วย "ครับ"');
    expect(await run('/settings', admin)).toContain('ตอบสั้น ๆ ลงท้ายด้วย');
    await run('/settings instructions อ้างอิงแบบนี้ [source: https://example.com] เสมอ', admin);
    expect((await settings.get('telegram:-100')).instructions).toBe('อ้างอิงแบบนี้ (source: https://example.com] เสมอ');
    const long = `/settings instructions ${'ก'.repeat(501)}`;
    expect(await run(long, admin)).toContain('ยาวเกินไป');
  });

  it('sets every-message for the conversation it was asked in, and names it elsewhere', async () => {
    const { run, settings } = setup();
    const topic = { conversationKey: 'telegram:-100:7', ...admin };
    await run('/settings trigger every-message', topic);
    expect(await settings.get('telegram:-100')).toMatchObject({ trigger: 'every-message', triggerConversation: 'telegram:-100:7' });
    expect(await run('/settings', topic)).toContain('ตอบทุกข้อความในห้องนี้');
    expect(await run('/settings', admin)).toContain('ตอบทุกข้อความในห้อง `telegram:-100:7`');
    await run('/settings trigger mention', admin);
    expect(await settings.get('telegram:-100')).not.toHaveProperty('triggerConversation');
  });

  it('warns when the trigger needs messages the platform does not show the bot (Telegram privacy mode)', async () => {
    const { run } = setup();
    expect(await run('/settings trigger name', admin)).toContain('ปิด privacy mode ที่ @BotFather');
    expect(await run('/settings trigger mention', admin)).not.toContain('privacy mode');
    const discord = { platform: 'discord' as const, spaceKey: 'discord:1', conversationKey: 'discord:2', ...admin };
    expect(await run('/settings trigger every-message', discord)).not.toContain('privacy mode');
  });

  it('resets everything to the defaults', async () => {
    const { run, settings } = setup();
    await run('/settings streaming off', admin);
    await run('/settings quotes off', admin);
    expect(await run('/settings reset', admin)).toContain('กลับเป็นค่าเริ่มต้นทั้งหมดแล้ว');
    expect(await settings.get('telegram:-100')).toEqual({});
  });

  it('answers a wrong value with what to type instead, in the reader language', async () => {
    const { run } = setup();
    expect(await run('/settings context 99', admin)).toBe('ต้องเป็นตัวเลข 0–50 หรือ default ดูวิธีใช้ด้วย /settings help');
    expect(await run('/settings colour red', admin, { language: 'en' })).toBe('Unknown setting “colour”. See /settings help.');
    expect(await run('/settings help', admin)).toContain('/settings trigger');
  });
});
