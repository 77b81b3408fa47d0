import Database from 'better-sqlite3';
import { Keyv } from 'keyv';
import { describe, expect, it } from 'vitest';
import { CatchUpRecorder } from '../../../src/catchup/catch-up-recorder.js';
import { DigestSchedule } from '../../../src/catchup/digest-schedule.js';
import { defaultReminderLimits } from '../../../src/reminders/reminder-store.js';
import { SqliteReminderStore } from '../../../src/reminders/sqlite-reminder-store.js';
import type { GroupLogEntry } from '../../../src/catchup/group-log-entry.js';
import { SqliteGroupLogStore } from '../../../src/catchup/sqlite-group-log-store.js';
import type { CommandContext } from '../../../src/commands/command.js';
import { createSummaryCommand, type CatchUpSummarizer } from '../../../src/commands/summary.js';
import { maskCredentials } from '../../../src/dlp/mask-credentials.js';
import { SpaceSettingsStore } from '../../../src/settings/space-settings-store.js';
import { silentLogger } from '../../../src/shared/log.js';
import type { InboundMessage, Platform } from '../../../src/shared/types.js';
import { fake } from '../../support/fake-tokens.js';
import { inboundMessage } from '../../support/inbound-message.js';

// /summary over a real SQLite catch-up log, with the recorder writing it: who may turn it on and off (announced,
// deleted when off), the spans (since the asker's last message, today, N hours), nothing to summarize, the summarizer
// failing, a store that cannot be read, credentials masked before they are written, spaces kept apart.

const t0 = Date.UTC(2026, 11, 7, 3, 0); // Monday 7 December 2026, 10:00 in Bangkok
const minute = 60_000;

function setup(summarize?: CatchUpSummarizer, readsAll?: boolean) {
  const database = new Database(':memory:');
  const store = new SqliteGroupLogStore(database);
  const reminders = new SqliteReminderStore(database);
  const settings = new SpaceSettingsStore(new Keyv());
  const seen: (readonly GroupLogEntry[])[] = [];
  const summary = createSummaryCommand({
    settings,
    log: store,
    timeZone: 'Asia/Bangkok',
    defaultDays: 7,
    digests: new DigestSchedule(reminders, 'Asia/Bangkok', defaultReminderLimits),
    readsAllGroupMessages: () => readsAll,
    summarize:
      summarize ??
      (async (entries, options) => {
        seen.push(entries);
        options.onProgress(0, 3);
        options.onProgress(1, 3);
        options.onProgress(2, 3);
        options.onProgress(3, 3);
        return `สรุป ${entries.length} ข้อความ`;
      }),
  });
  let now = t0;
  const recorder = new CatchUpRecorder({
    store,
    mask: (text) => {
      const masked = maskCredentials(text);
      return masked.unmasked.length > 0 ? undefined : masked.text;
    },
    linkFor: (message) => `https://t.me/c/1/${message.messageId}`,
    now: () => now,
    log: silentLogger(),
  });
  let id = 0;
  const say = async (text: string, at: number, sender = { id: '7', name: 'สมศรี' }, spaceKey = 'telegram:-100') => {
    id += 1;
    await recorder.record(
      inboundMessage({
        text,
        spaceKey,
        conversationKey: spaceKey,
        messageId: `m${id}`,
        receivedAt: new Date(at),
        sender: { ...sender, isPlatformAdmin: false },
      }),
      7,
    );
  };
  const progress: string[] = [];
  const run = async (words: string[], caller: { admin?: boolean; global?: boolean; platform?: Platform; direct?: boolean; at?: number; id?: string } = {}) => {
    const at = caller.at ?? now;
    const message: InboundMessage = inboundMessage({
      platform: caller.platform ?? 'telegram',
      chatKind: caller.direct ? 'direct' : 'group',
      text: `/summary ${words.join(' ')}`,
      receivedAt: new Date(at),
      sender: { id: caller.id ?? '42', name: 'มานี', isPlatformAdmin: caller.admin ?? false },
    });
    const context: CommandContext = {
      message,
      language: 'th',
      isGlobalAdmin: caller.global ?? false,
      log: silentLogger(),
      now: () => new Date(at),
      progress: (event) => progress.push(event.text),
      download: () => Promise.reject(new Error('none')),
    };
    return (await summary.run({ name: 'summary', rest: words.join(' '), words }, context)).text;
  };
  return { store, reminders, settings, seen, say, run, progress, setNow: (at: number) => (now = at) };
}

describe('/summary', () => {
  it('is off until a group admin turns it on; on is announced, off deletes what was kept', async () => {
    const { store, say, run, settings } = setup();
    expect(await run([])).toContain('ยังไม่ได้เปิดการเก็บข้อความ');
    expect(await run(['on'])).toContain('เฉพาะผู้ดูแลกลุ่ม');
    expect(await run(['on'], { platform: 'line' })).toContain('LINE ไม่แจ้งบอท');
    const announced = await run(['on'], { admin: true });
    expect(announced).toContain('7 วัน');
    expect(announced).toContain('/summary off');
    expect((await settings.get('telegram:-100')).catchUpDays).toBe(7);
    expect(await run(['on', '14'], { global: true })).toContain('14 วัน');
    await say('ประชุมพรุ่งนี้ย้ายไปห้อง 3', t0 - 10 * minute);
    await say('รับทราบครับ', t0 - 9 * minute);
    expect(await store.count('telegram:-100')).toBe(2);
    expect(await run(['off'])).toContain('เฉพาะผู้ดูแลกลุ่ม');
    expect(await run(['off'], { admin: true })).toContain('(2 ข้อความ)');
    expect(await store.count('telegram:-100')).toBe(0);
    expect((await settings.get('telegram:-100')).catchUpDays).toBeUndefined();
    expect(await run(['off'], { admin: true })).toContain('ยังไม่ได้เปิด');
  });

  it('warns when the bot cannot see the group’s messages (Telegram privacy mode)', async () => {
    expect(await setup(undefined, false).run(['on'], { admin: true })).toContain('privacy mode');
    expect(await setup(undefined, true).run(['on'], { admin: true })).not.toContain('privacy mode');
  });

  it('sets the daily digest at a time said in words, replaces it, and takes it away with off', async () => {
    const { run, reminders } = setup();
    expect(await run(['digest', '18:00'], { admin: true })).toContain('ยังไม่ได้เปิด');
    await run(['on'], { admin: true });
    expect(await run(['digest', '18:00'])).toContain('เฉพาะผู้ดูแลกลุ่ม');
    expect(await run(['digest', '18:00'], { admin: true })).toContain('ทุกวันเวลา 18:00 น.');
    expect(await run(['digest', '6', 'โมงเย็น'], { admin: true })).toContain('ทุกวันเวลา 18:00 น.');
    expect(await run(['digest', 'เร็วๆ', 'นี้'], { admin: true })).toContain('บอกเวลาของสรุปประจำวัน');
    const digests = (await reminders.list('telegram:-100')).filter((reminder) => reminder.kind === 'digest');
    expect(digests.map((digest) => [digest.recurrence, digest.timeOfDay])).toEqual([[{ kind: 'daily' }, { hour: 18, minute: 0 }]]);
    expect(await run(['digest', 'off'], { admin: true })).toBe('ปิดสรุปประจำวันแล้ว');
    expect(await run(['digest', 'off'], { admin: true })).toBe('กลุ่มนี้ไม่ได้ตั้งสรุปประจำวันไว้');
    await run(['digest', '07:30'], { admin: true });
    await run(['off'], { admin: true });
    expect(await reminders.list('telegram:-100')).toEqual([]);
  });

  it('is for groups', async () => {
    const { run } = setup();
    expect(await run([], { direct: true })).toContain('ใช้ได้ในกลุ่มเท่านั้น');
  });

  it('summarizes since the asker’s last message, today, or the last hours, with progress', async () => {
    const { say, run, seen, progress } = setup();
    await run(['on'], { admin: true });
    await say('เมื่อวานคุยเรื่องงบ', t0 - 20 * 60 * minute); // 14:00 yesterday in Bangkok
    await say('ผมขอลาออกจากแชทก่อน', t0 - 5 * 60 * minute, { id: '42', name: 'มานี' });
    await say('งบประมาณปีหน้า 1.2 ล้าน', t0 - 2 * 60 * minute);
    await say('โอเค', t0 - 30 * minute);

    const sinceMe = await run([]);
    expect(sinceMe).toContain('ตั้งแต่ข้อความล่าสุดของคุณ');
    expect(sinceMe).toContain('(2 ข้อความ');
    expect(seen.at(-1)?.map((entry) => entry.text)).toEqual(['งบประมาณปีหน้า 1.2 ล้าน', 'โอเค']);
    expect(progress).toEqual([
      '📝 กำลังสรุป 2 ข้อความ แบ่งเป็น 3 ส่วน อาจใช้เวลาหลายนาที จะแจ้งความคืบหน้าเป็นระยะ',
      '📝 กำลังสรุป… เสร็จ 1/3 ส่วน',
      '📝 กำลังสรุป… เสร็จ 2/3 ส่วน',
    ]);

    expect(await run(['วันนี้'])).toContain('(3 ข้อความ'); // since midnight in Bangkok: not yesterday's
    expect(await run(['1', 'ชม.'])).toContain('(1 ข้อความ');
    // Someone who never spoke (or just did) gets the last day.
    expect(await run([], { id: '99' })).toContain('24 ชั่วโมงที่ผ่านมา');
    expect(await run(['1', 'ชม.'], { at: t0 + 5 * 60 * minute })).toContain('ไม่มีข้อความให้สรุป');
  });

  it('says so when the model fails, and when the store cannot be read', async () => {
    const failing = setup(async () => undefined);
    await failing.run(['on'], { admin: true });
    await failing.say('ข้อความหนึ่ง', t0 - minute);
    expect(await failing.run(['today'])).toContain('สรุปไม่สำเร็จ');

    const broken = setup();
    await broken.run(['on'], { admin: true });
    broken.store.read = () => Promise.reject(new Error('disk I/O error'));
    expect(await broken.run(['today'])).toContain('อ่านข้อความที่เก็บไว้ไม่ได้');
  });
});

describe('the catch-up recorder', () => {
  it('masks a credential before it is written, keeps links, skips commands, and logs a redelivery once', async () => {
    const { store, say } = setup();
    const token = fake.githubClassic();
    await say(`โทเคนของ CI คือ ${token} อย่าบอกใคร`, t0);
    await say(`โทเคนของ CI คือ ${token} อย่าบอกใคร`, t0); // another message id: a second message
    await say('/status', t0);
    const [entry] = await store.read('telegram:-100', { from: 0, to: t0 + 1, limit: 10 });
    expect(entry?.text).not.toContain(token);
    expect(entry?.text).toContain('[redacted:');
    expect(entry?.link).toBe('https://t.me/c/1/m1');
    expect(await store.count('telegram:-100')).toBe(2);

    const recorder = new CatchUpRecorder({ store, mask: (text) => text, linkFor: () => undefined, now: () => t0, log: silentLogger() });
    const again = inboundMessage({ text: 'ซ้ำ', messageId: 'same', receivedAt: new Date(t0) });
    await recorder.record(again, 7);
    await recorder.record(again, 7);
    expect(await store.count('telegram:-100')).toBe(3);
  });

  it('keeps spaces apart and prunes past the retention', async () => {
    const { store, say, setNow } = setup();
    await say('กลุ่มเอ', t0 - 9 * 24 * 60 * minute, undefined, 'telegram:-1');
    await say('กลุ่มบี', t0, undefined, 'telegram:-2');
    expect((await store.read('telegram:-2', { from: 0, to: t0 + 1, limit: 10 })).map((entry) => entry.text)).toEqual(['กลุ่มบี']);
    setNow(t0 + 2 * 60 * minute);
    await say('ใหม่', t0 + 2 * 60 * minute, undefined, 'telegram:-1'); // a write prunes what is older than 7 days
    expect((await store.read('telegram:-1', { from: 0, to: t0 + 3 * 60 * minute, limit: 10 })).map((entry) => entry.text)).toEqual(['ใหม่']);
  });
});
