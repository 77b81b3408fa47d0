import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultReminderLimits } from '../../../src/reminders/reminder-store.js';
import { SpaceSettingsStore } from '../../../src/settings/space-settings-store.js';
import { silentLogger } from '../../../src/shared/log.js';
import { AuditLog, type AuditEntry } from '../../../src/web/audit-log.js';
import type { WebGrant } from '../../../src/web/web-sessions.js';
import { startAdminSite, type AdminBrowser, type AdminSiteWorld } from '../../support/admin-site.js';
import { githubToken } from '../../support/fake-tokens.js';
import { logEntry } from '../../support/group-log-store-contract.js';
import { newReminder } from '../../support/reminder-store-contract.js';
import { inboundMessage } from '../../support/inbound-message.js';

// The groups pages over HTTP against the whole app: a change on the page is the change /settings, /remind cancel and
// /summary make in the chat (each read back through the chat), refused out of scope, without the page's token or
// for a demoted group admin; each change audited; what people typed shown escaped.

let world: AdminSiteWorld;
const ours = 'telegram:-100555';
const theirs = 'telegram:-100777';
const path = (space: string, rest = '') => `/admin/groups/${encodeURIComponent(space)}${rest}`;
const groupAdmin: Partial<WebGrant> = { adminId: 'telegram:2001', name: 'Dao', scope: { kind: 'spaces', spaceKeys: [ours] } };

beforeAll(async () => {
  // The bot-wide quota a group admin may not exceed.
  world = await startAdminSite({ environment: { USER_MESSAGES_PER_MINUTE: '20' } });
  // Usage makes a space known to the list.
  const day = new Date().toISOString().slice(0, 10);
  const counts = { turns: 1, modelMs: 0, promptTokens: 0, generatedTokens: 0, searches: 0, ocrPages: 0 };
  for (const spaceKey of [ours, theirs]) await world.testApp.app.storage.usage.add({ day, spaceKey, userKey: 'telegram:9', userName: 'Noi', counts });
});
afterAll(async () => world.close());

let messageNumber = 0;
/** A group admin's message in the group (as Telegram reports an administrator); the bot's answer. */
async function chat(text: string, space = ours): Promise<string> {
  const chatId = space.slice('telegram:'.length);
  const handled = await world.testApp.send(
    inboundMessage({
      spaceKey: space,
      conversationKey: space,
      messageId: `${chatId}:${++messageNumber}`,
      text,
      sender: { id: '1001', name: 'Somchai', isPlatformAdmin: true },
    }),
  );
  return handled.replies.map((reply) => reply.text).join('\n');
}

const settingsOf = (space: string) => new SpaceSettingsStore(world.testApp.app.storage.settings).get(space);
const auditEntries = () => new AuditLog(world.testApp.app.storage.web, silentLogger()).latest();
const newestAudit = async (): Promise<AuditEntry | undefined> => (await auditEntries())[0];

async function pageOf(browser: AdminBrowser, space = ours): Promise<string> {
  const answer = await browser.get(path(space));
  expect(answer.status).toBe(200);
  return answer.text();
}

/** Posts a form and follows the redirect to see its notice. */
async function change(browser: AdminBrowser, to: string, fields: Record<string, string>): Promise<{ status: number; text: string }> {
  const answer = await browser.post(to, fields);
  if (answer.status !== 303) return { status: answer.status, text: await answer.text() };
  const notice = (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const next = await fetch(`${world.baseUrl}${answer.headers.get('location') ?? ''}`, { headers: { cookie: `${browser.cookie}; ${notice}` } });
  return { status: 303, text: await next.text() };
}

/** The form with `id` on the page. */
function formOf(page: string, id: string): string {
  const start = page.indexOf(`id="${id}"`);
  expect(start, `#${id}`).toBeGreaterThan(-1);
  return page.slice(start, page.indexOf('</form>', start));
}

/** The option a setting's select has chosen. */
function chosen(page: string, setting: string): string | undefined {
  const form = formOf(page, `setting-${setting}`);
  const option = form.split('<option').find((each) => each.includes(' selected'));
  return option?.slice(option.indexOf('value="') + 7, option.indexOf('"', option.indexOf('value="') + 7));
}

describe('the groups list', () => {
  it('lists every known space for a bot admin, only the scope’s for a group admin', async () => {
    const everything = await (await (await world.logIn({})).get('/admin/groups')).text();
    expect(everything).toContain(`data-space="${ours}"`);
    expect(everything).toContain(`data-space="${theirs}"`);
    const scoped = await (await (await world.logIn(groupAdmin)).get('/admin/groups')).text();
    expect(scoped).toContain(`data-space="${ours}"`);
    expect(scoped).not.toContain(theirs);
    // Spaces the reminders or the catch-up log alone know of are listed too, with what they hold.
    const { storage } = world.testApp.app;
    await storage.reminders.add(newReminder({ spaceKey: 'discord:4001' }), defaultReminderLimits);
    await storage.groupLog.append(logEntry(1, Date.now(), { spaceKey: 'line:Cquiet' }));
    const wider = await (await (await world.logIn({})).get('/admin/groups')).text();
    expect(wider.slice(wider.indexOf('data-space="discord:4001"'))).toMatch(/data-label="การเตือน">1</);
    expect(wider).toContain('data-space="line:Cquiet"');
    await storage.reminders.cancel('discord:4001', 1);
    await storage.groupLog.deleteSpace('line:Cquiet');
    // A key typed in opens its page.
    const open = await (await world.logIn({})).get(`/admin/groups?space=${encodeURIComponent('line:Cabc')}`);
    expect(open.headers.get('location')).toBe(path('line:Cabc'));
  });
});

describe('a space’s settings', () => {
  it('changes a setting as /settings does, and shows what /settings changed', async () => {
    const browser = await world.logIn(groupAdmin);
    const saved = await change(browser, path(ours, '/settings'), { setting: 'language', value: 'en' });
    expect(saved.status).toBe(303);
    expect(saved.text).toContain('บันทึกแล้ว');
    expect(await chat('/settings')).toContain('- Language: English');
    expect(await newestAudit()).toMatchObject({ who: 'telegram:2001', action: 'group-setting', detail: { space: ours, setting: 'language' } });

    expect(await chat('/settings quota 3')).toContain('Saved.');
    expect(await chat('/settings streaming off')).toContain('Saved.');
    const page = await pageOf(browser);
    expect(formOf(page, 'setting-quota')).toContain('value="3"');
    expect(chosen(page, 'streaming')).toBe('off');
    expect(chosen(page, 'language')).toBe('en');
    expect(chosen(page, 'quotes')).toBe('default');

    await change(browser, path(ours, '/settings'), { setting: 'quota', value: '', default: '1' });
    await change(browser, path(ours, '/settings'), { setting: 'trigger', value: 'name', names: 'แสง น้องแสง' });
    await change(browser, path(ours, '/settings'), { setting: 'language', value: 'default' });
    const shown = await chat('/settings');
    expect(shown).toContain('โควตาต่อผู้ใช้: 20 ข้อความต่อนาที (ค่าเริ่มต้น)');
    expect(shown).toContain('เรียกชื่อ (แสง, น้องแสง)');
    expect(await settingsOf(ours)).toMatchObject({ trigger: 'name', names: ['แสง', 'น้องแสง'], updatedBy: 'telegram:2001' });
  });

  it('answers an invalid value with /settings’s Thai problem and changes nothing', async () => {
    const browser = await world.logIn(groupAdmin);
    const before = await settingsOf(ours);
    const entries = (await auditEntries()).length;
    const cases: [Record<string, string>, string][] = [
      [{ setting: 'context', value: '99' }, 'ต้องเป็นตัวเลข 0–50 หรือ default'],
      [{ setting: 'quota', value: 'มาก' }, 'ต้องเป็นตัวเลข 1–120 หรือ default'],
      [{ setting: 'streaming', value: 'maybe' }, 'ใช้ได้เฉพาะ on, off หรือ default'],
      [{ setting: 'trigger', value: 'name', names: 'หนึ่ง สอง สาม สี่' }, 'ชื่อเรียกใช้ได้ไม่เกิน 3 ชื่อ'],
      [{ setting: 'instructions', value: 'ก'.repeat(501) }, 'คำแนะนำยาวเกินไป (501 ตัวอักษร'],
      // A group admin may lower the quota only (the bot's is 20 here).
      [{ setting: 'quota', value: '30' }, 'ผู้ดูแลกลุ่มลดโควตาได้ไม่เกิน 20 ข้อความต่อนาที'],
      [{ setting: 'instructions', value: `ใช้โทเค็น ${githubToken('ghp', 7)} เสมอ` }, 'ไม่ได้บันทึก: คำแนะนำนี้มีข้อความที่ดูเหมือนรหัสลับ'],
      [{ setting: 'trigger', value: 'every-message' }, 'ตั้งได้ในห้องนั้นเท่านั้น'],
    ];
    for (const [fields, problem] of cases) {
      const answer = await browser.post(path(ours, '/settings'), fields);
      expect(answer.status, fields.value).toBe(400);
      const text = await answer.text();
      expect(text).toContain('id="settings-error"');
      expect(text).toContain(problem);
    }
    expect((await browser.post(path(ours, '/settings'), { setting: 'updatedBy', value: 'x' })).status).toBe(400);
    expect(await settingsOf(ours)).toEqual(before);
    expect(await auditEntries()).toHaveLength(entries);
    // A bot admin may raise it.
    expect((await browser.post(path(ours, '/settings'), { setting: 'quota', value: '30' })).status).toBe(400);
    expect((await (await world.logIn({})).post(path(ours, '/settings'), { setting: 'quota', value: '30' })).status).toBe(303);
    expect((await settingsOf(ours)).quotaPerMinute).toBe(30);
  });

  it('shows the instructions people typed escaped, in the form and after a refusal', async () => {
    const browser = await world.logIn({});
    const text = '<script>alert("x")</script> ตอบสั้น ๆ';
    expect((await browser.post(path(ours, '/settings'), { setting: 'instructions', value: text })).status).toBe(303);
    expect((await settingsOf(ours)).instructions).toBe(text);
    expect(await chat('/settings')).toContain('ตอบสั้น ๆ');
    const page = await pageOf(browser);
    expect(formOf(page, 'setting-instructions')).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; ตอบสั้น ๆ');
    expect(page).not.toContain('<script>alert');
    const refused = await (
      await browser.post(path(ours, '/settings'), { setting: 'instructions', value: `<img src=x onerror=alert(1)>${'ข'.repeat(600)}` })
    ).text();
    expect(refused).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(refused).not.toContain('<img');
    // The audit names the setting, never its text.
    expect(JSON.stringify(await auditEntries())).not.toContain('script');
    await browser.post(path(ours, '/settings'), { setting: 'instructions', value: '', default: '1' });
    expect((await settingsOf(ours)).instructions).toBeUndefined();
  });
});

describe('scope and refusals', () => {
  it('hides another group from a group admin and refuses a change to it', async () => {
    const browser = await world.logIn(groupAdmin);
    expect((await browser.get(path(theirs))).status).toBe(404);
    expect((await browser.get(path('x'.repeat(300)))).status).toBe(404);
    const refused = await browser.post(path(theirs, '/settings'), { setting: 'language', value: 'en' });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('คุณไม่มีสิทธิ์ดูแลส่วนนี้');
    expect((await browser.post(path(theirs, '/catch-up'), { days: '3' })).status).toBe(403);
    expect(await settingsOf(theirs)).toEqual({});
  });

  it('refuses a change without the page’s token', async () => {
    const browser = await world.logIn({});
    const before = await settingsOf(ours);
    expect((await browser.post(path(ours, '/settings'), { setting: 'language', value: 'en' }, { csrf: '' })).status).toBe(403);
    expect((await browser.post(path(ours, '/settings'), { setting: 'language', value: 'en' }, { csrf: browser.csrfToken.slice(1) })).status).toBe(403);
    expect(await settingsOf(ours)).toEqual(before);
  });

  it('refuses a group admin the platform no longer counts as one', async () => {
    const demoted = await startAdminSite({ services: { stillSpaceAdmin: async () => false } });
    try {
      const browser = await demoted.logIn(groupAdmin);
      // Seeing is the session's scope; changing asks the platform again.
      expect((await browser.get(path(ours))).status).toBe(200);
      const refused = await browser.post(path(ours, '/settings'), { setting: 'language', value: 'en' });
      expect(refused.status).toBe(403);
      expect(await new SpaceSettingsStore(demoted.testApp.app.storage.settings).get(ours)).toEqual({});
    } finally {
      await demoted.close();
    }
  });
});

describe('reminders', () => {
  it('lists the space’s reminders escaped and cancels one as /remind cancel does', async () => {
    expect(await chat('/remind พรุ่งนี้ 9 โมงเช้า <script>alert(1)</script> ประชุม')).toContain('ตั้งเตือนแล้ว (#1)');
    expect(await chat('/remind พรุ่งนี้ 5 โมงเย็น ส่งรายงาน')).toContain('ตั้งเตือนแล้ว (#2)');
    const browser = await world.logIn(groupAdmin);
    const page = await pageOf(browser);
    const list = page.slice(page.indexOf('id="reminder-list"'), page.indexOf('</table>', page.indexOf('id="reminder-list"')));
    expect(list).toContain('&lt;script&gt;alert(1)&lt;/script&gt; ประชุม');
    expect(list).not.toContain('<script>');
    expect(list).toContain(`เวลา 09:00 น.`);
    expect(list).toContain(String(new Date().getFullYear() + 543));
    const cancelled = await change(browser, path(ours, '/reminders/1/cancel'), {});
    expect(cancelled.text).toContain('ยกเลิกการเตือน #1 แล้ว');
    expect(await chat('/reminders')).not.toContain('ประชุม');
    expect(await newestAudit()).toMatchObject({ action: 'reminder-cancel', detail: { space: ours, reminder: 1 } });
    expect((await change(browser, path(ours, '/reminders/1/cancel'), {})).text).toContain('ไม่พบการเตือน #1');
    expect((await browser.post(path(ours, '/reminders/abc/cancel'), {})).status).toBe(303);
    expect((await world.testApp.app.storage.reminders.list(ours)).map((reminder) => reminder.number)).toEqual([2]);
  });
});

describe('catch-up', () => {
  it('leaves turning it on to the group, changes its days, sets the digest, and off deletes the log and the digest', async () => {
    const browser = await world.logIn(groupAdmin);
    const { groupLog, reminders } = world.testApp.app.storage;
    // Off: the page does not turn it on behind the members' backs (in the group, /summary on tells them).
    expect(await pageOf(browser)).toContain('id="catch-up-in-group"');
    const silently = await browser.post(path(ours, '/catch-up'), { days: '5' });
    expect(silently.status).toBe(409);
    expect(await silently.text()).toContain('พิมพ์ /summary on ในกลุ่ม');
    expect((await settingsOf(ours)).catchUpDays).toBeUndefined();

    await chat('/summary on 7');
    const invalid = await browser.post(path(ours, '/catch-up'), { days: '31' });
    expect(invalid.status).toBe(400);
    expect(await invalid.text()).toContain('จำนวนวันต้องเป็นตัวเลข 1–30');
    expect((await settingsOf(ours)).catchUpDays).toBe(7);

    await change(browser, path(ours, '/catch-up'), { days: '5' });
    expect(await chat('/settings')).toContain('เก็บข้อความไว้สรุป (/summary): 5 วัน');
    expect(await newestAudit()).toMatchObject({ action: 'catch-up-days', detail: { space: ours, days: 5 } });
    await groupLog.append({ spaceKey: ours, messageId: 'm1', at: Date.now(), speakerKey: 'telegram:9', speaker: 'Noi', text: 'สวัสดี' });
    const on = await pageOf(browser);
    expect(on).toContain('data-state="on" data-days="5"');
    expect(on).toContain('ตอนนี้มี 1 ข้อความ');

    expect((await browser.post(path(ours, '/digest'), { time: 'เมื่อไหร่ก็ได้' })).status).toBe(400);
    expect((await change(browser, path(ours, '/digest'), { time: '18:30' })).text).toContain('ตั้งสรุปประจำวันแล้ว: ทุกวันเวลา 18:30 น.');
    const digest = (await reminders.list(ours)).find((reminder) => reminder.kind === 'digest');
    expect(digest?.timeOfDay).toEqual({ hour: 18, minute: 30 });
    expect(await chat('/reminders')).toContain('สรุปประจำวันของกลุ่ม');
    expect(await newestAudit()).toMatchObject({ action: 'digest-set', detail: { space: ours, time: '18:30' } });

    expect((await change(browser, path(ours, '/catch-up/off'), {})).text).toContain('ลบข้อความที่เก็บไว้ทั้งหมด (1 ข้อความ)');
    expect(await groupLog.count(ours)).toBe(0);
    expect((await reminders.list(ours)).some((reminder) => reminder.kind === 'digest')).toBe(false);
    expect(await chat('/settings')).toContain('ไม่เก็บ');
    expect(await newestAudit()).toMatchObject({ action: 'catch-up-off', detail: { space: ours, deleted: 1 } });
    expect((await pageOf(browser)).includes('data-state="off"')).toBe(true);
  });

  it('takes /summary on from the chat, and sets no digest where the bot knows no chat of the group', async () => {
    const browser = await world.logIn({});
    expect(await chat('/summary on 3', theirs)).toContain('3 วัน');
    expect(await pageOf(browser, theirs)).toContain('data-state="on" data-days="3"');
    const refused = await browser.post(path(theirs, '/digest'), { time: '18:00' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('/summary digest 18:00');
    expect(await world.testApp.app.storage.reminders.list(theirs)).toEqual([]);
  });
});
