import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../src/commands/command.js';
import { createRemindCommand, createRemindersCommand, type RemindCommandOptions } from '../../../src/commands/remind.js';
import { scanForCredentials } from '../../../src/dlp/scan.js';
import { parseReminderOrigin } from '../../../src/reminders/reminder-origin.js';
import type { ReminderStore } from '../../../src/reminders/reminder-store.js';
import { SqliteReminderStore } from '../../../src/reminders/sqlite-reminder-store.js';
import type { PushQuota } from '../../../src/shared/channel.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { InboundMessage, Language, Platform } from '../../../src/shared/types.js';
import { githubToken } from '../../support/fake-tokens.js';

// /remind and /reminders over a real SQLite reminder store: the time resolved by code and confirmed as an absolute
// date (Buddhist Era in Thai), ambiguous and past times asked about and nothing stored, recurring reminders, the list,
// who may cancel, the limits, a credential refused, LINE's push quota, English.

const now = new Date('2026-12-07T03:00:00Z'); // Monday 7 December 2026, 10:00 in Bangkok

interface Caller {
  platform?: Platform;
  userId?: string;
  name?: string;
  groupAdmin?: boolean;
  globalAdmin?: boolean;
  language?: Language;
  text?: string;
}

function context(caller: Caller = {}): CommandContext {
  const platform = caller.platform ?? 'telegram';
  const message: InboundMessage = {
    platform,
    conversationKey: `${platform}:-100`,
    spaceKey: `${platform}:-100`,
    messageId: '-100:55',
    chatKind: 'group',
    sender: { id: caller.userId ?? '42', name: caller.name ?? 'มานี', isPlatformAdmin: caller.groupAdmin ?? false },
    text: caller.text ?? '/remind',
    mentionsBot: false,
    repliesToBot: false,
    attachments: [],
    receivedAt: now,
    replyToken: { value: 'secret-reply-token', expiresAt: new Date(now.getTime() + 60_000) },
  };
  return {
    message,
    language: caller.language ?? 'th',
    isGlobalAdmin: caller.globalAdmin ?? false,
    log: silentLogger(),
    now: () => now,
    progress: () => undefined,
    download: () => Promise.reject(new Error('no attachments here')),
  };
}

function setup(options: Partial<RemindCommandOptions> = {}) {
  const store: ReminderStore = new SqliteReminderStore(new Database(':memory:'));
  let added = 0;
  const remind = createRemindCommand({
    store,
    timeZone: 'Asia/Bangkok',
    limits: { perSpace: 50, perUser: 10 },
    credentialKinds: (text) => {
      const scan = scanForCredentials(text);
      return scan.found ? scan.kinds : [];
    },
    added: () => void added++,
    ...options,
  });
  const run = async (rest: string, caller: Caller = {}) => {
    const words = rest.split(/\s+/).filter(Boolean);
    return (await remind.run({ name: 'remind', rest, words }, context({ text: `/remind ${rest}`, ...caller }))).text;
  };
  const list = async (caller: Caller = {}) => (await createRemindersCommand(remind).run({ name: 'reminders', rest: '', words: [] }, context(caller))).text;
  return { store, run, list, added: () => added };
}

describe('/remind', () => {
  it('saves a reminder and confirms the absolute date and time, in Thai with the Buddhist-Era year', async () => {
    const { store, run, added } = setup();
    const reply = await run('พรุ่งนี้ 9 โมง ประชุมทีม');
    expect(reply).toBe('⏰ ตั้งเตือนแล้ว (#1): ประชุมทีม\n🗓️ วันอังคารที่ 8 ธันวาคม 2569 เวลา 09:00 น.\nยกเลิกได้ด้วย /remind cancel 1');
    const [saved] = await store.list('telegram:-100');
    expect(saved).toMatchObject({ number: 1, text: 'ประชุมทีม', dueAt: Date.parse('2026-12-08T09:00:00+07:00'), userKey: 'telegram:42', userName: 'มานี' });
    expect(added()).toBe(1);
    // The origin keeps the chat, never the reply token (a credential).
    expect(saved?.origin).not.toContain('secret-reply-token');
    expect(parseReminderOrigin(saved?.origin ?? '')).toMatchObject({ conversationKey: 'telegram:-100', messageId: '-100:55' });
  });

  it('takes "add", Thai digits and a duration', async () => {
    const { store, run } = setup();
    expect(await run('add อีก ๓๐ นาที โทรหาลูกค้า')).toContain('วันจันทร์ที่ 7 ธันวาคม 2569 เวลา 10:30 น.');
    expect((await store.list('telegram:-100'))[0]?.text).toBe('โทรหาลูกค้า');
  });

  it('asks instead of guessing am or pm, and stores nothing', async () => {
    const { store, run } = setup();
    const reply = await run('3 โมง โทรหาลูกค้า');
    expect(reply).toContain('ไม่แน่ใจว่าหมายถึงช่วงเช้าหรือบ่าย');
    expect(reply).toContain('15:00');
    expect(await store.list('telegram:-100')).toEqual([]);
  });

  it('asks for a time when there is none, and says when a time has passed', async () => {
    const { store, run } = setup();
    expect(await run('ส่งรายงาน')).toContain('บอกเวลาที่ต้องการให้เตือนด้วยครับ');
    expect(await run('พรุ่งนี้ ส่งรายงาน')).toContain('ต้องการให้เตือนกี่โมงครับ');
    expect(await run('1 ม.ค. 2568 9:00 ส่งรายงาน')).toContain('เวลานั้นผ่านไปแล้วครับ');
    expect(await run('')).toContain('ตั้งเตือนได้แบบนี้ครับ');
    expect(await store.list('telegram:-100')).toEqual([]);
  });

  it('saves a recurring reminder with its time of day and shows the next occurrence', async () => {
    const { store, run } = setup();
    const reply = await run('ทุกวันจันทร์ 8 โมงครึ่ง ส่งรายงาน');
    expect(reply).toContain('ทุกวันจันทร์ เวลา 08:30 น.');
    expect(reply).toContain('วันจันทร์ที่ 14 ธันวาคม 2569');
    expect((await store.list('telegram:-100'))[0]).toMatchObject({ recurrence: { kind: 'weekly', weekday: 1 }, timeOfDay: { hour: 8, minute: 30 } });
  });

  it('lists the reminders and lets their author, a group admin or a bot admin cancel them, nobody else', async () => {
    const { store, run, list } = setup();
    await run('พรุ่งนี้ 9 โมงเช้า ประชุมทีม');
    await run('วันศุกร์ บ่ายสาม ส่งของ', { userId: '43', name: 'สมชาย' });
    const shown = await list();
    expect(shown.split('\n')[0]).toBe('⏰ การเตือนในห้องนี้ (2 รายการ)');
    expect(shown).toContain('#1 ประชุมทีม — วันอังคารที่ 8 ธันวาคม 2569 เวลา 09:00 น. (ตั้งโดย มานี)');
    expect(shown).toContain('#2 ส่งของ — วันศุกร์ที่ 11 ธันวาคม 2569 เวลา 15:00 น. (ตั้งโดย สมชาย)');

    expect(await run('cancel 2')).toBe('ขออภัยครับ ยกเลิกได้เฉพาะคนที่ตั้งการเตือนนี้ (สมชาย) หรือผู้ดูแลของห้อง');
    expect(await run('ยกเลิก ๒', { userId: '43' })).toBe('🗑️ ยกเลิกการเตือน #2 แล้ว: ส่งของ');
    expect(await run('cancel 1', { userId: '44', groupAdmin: true })).toBe('🗑️ ยกเลิกการเตือน #1 แล้ว: ประชุมทีม');
    expect(await run('cancel 1')).toBe('ไม่พบการเตือน #1 ในห้องนี้ครับ (ดูรายการด้วย /reminders)');
    expect(await run('cancel x')).toContain('ระบุเลขของการเตือน');
    expect(await store.list('telegram:-100')).toEqual([]);
    expect(await list()).toContain('ยังไม่มีการเตือนในห้องนี้ครับ');
  });

  it('keeps to the limits per user and per chat', async () => {
    const { run } = setup({ limits: { perSpace: 3, perUser: 2 } });
    await run('พรุ่งนี้ 9 โมงเช้า หนึ่ง');
    await run('พรุ่งนี้ 10 โมง สอง');
    expect(await run('พรุ่งนี้ 11 โมง สาม')).toContain('คุณตั้งเตือนในห้องนี้ครบ 2 รายการแล้ว');
    await run('พรุ่งนี้ 11 โมง สาม', { userId: '43' });
    expect(await run('พรุ่งนี้ 11 โมง สี่', { userId: '44' })).toContain('ห้องนี้มีการเตือนครบ 3 รายการแล้ว');
  });

  it('refuses a reminder text holding a credential', async () => {
    const { store, run } = setup();
    expect(await run(`พรุ่งนี้ 9 โมงเช้า ส่งโทเคน ${githubToken('ghp', 7)}`)).toBe('ขออภัยครับ ข้อความที่จะให้เตือนดูเหมือนมีรหัสลับหรือโทเคน จึงไม่บันทึกไว้');
    expect(await store.list('telegram:-100')).toEqual([]);
  });

  it("on LINE says what a reminder costs when the month's push quota is low, and refuses when it is used up", async () => {
    let quota: PushQuota | undefined = { used: 150, limit: 200, exhausted: false };
    const { store, run } = setup({ pushQuota: async () => quota });
    expect(await run('พรุ่งนี้ 9 โมงเช้า ประชุม', { platform: 'line' })).toContain('เดือนนี้เหลืออีก 50 ข้อความ');
    quota = { used: 200, limit: 200, exhausted: false };
    expect(await run('พรุ่งนี้ 10 โมง ประชุม', { platform: 'line' })).toContain('โควตาข้อความ push ของ LINE เดือนนี้หมดแล้ว');
    quota = { used: 10, exhausted: true };
    expect(await run('พรุ่งนี้ 10 โมง ประชุม', { platform: 'line' })).toContain('หมดแล้ว');
    quota = undefined;
    expect(await run('พรุ่งนี้ 10 โมง ประชุม', { platform: 'line' })).not.toContain('LINE');
    expect((await store.list('line:-100')).map((reminder) => reminder.number)).toEqual([1, 2]);
  });

  it('speaks English', async () => {
    const { run } = setup();
    expect(await run('tomorrow at 3pm submit the report', { language: 'en' })).toBe(
      '⏰ Reminder set (#1): submit the report\n🗓️ Tuesday 8 December 2026 at 15:00\nCancel it with /remind cancel 1',
    );
    expect(await run('at 7 call home', { language: 'en' })).toContain('morning or afternoon');
  });

  it('says so when the store cannot be reached', async () => {
    const { store, run } = setup();
    store.add = () => Promise.reject(new Error('redis down'));
    expect(await run('พรุ่งนี้ 9 โมง ประชุม')).toContain('ตอนนี้บันทึกการเตือนไม่ได้');
  });
});
