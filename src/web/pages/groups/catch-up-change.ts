import { catchUpTexts } from '../../../catchup/catch-up-texts.js';
import { DigestSchedule } from '../../../catchup/digest-schedule.js';
import { parseSummaryRequest } from '../../../catchup/summary-request.js';
import { splitWords } from '../../../commands/parse.js';
import { defaultReminderLimits } from '../../../reminders/reminder-store.js';
import { describeWhen } from '../../../reminders/when/describe-when.js';
import { parseWhen } from '../../../reminders/when/parse-when.js';
import { wallClockOf } from '../../../reminders/when/zoned-time.js';
import { spaceSettingsLimits, type SpaceSettings } from '../../../settings/space-settings.js';
import { say, type Localized } from '../../../shared/i18n.js';
import type { AdminRequest, AdminRoute } from '../../admin-route.js';
import type { AdminServices } from '../admin-services.js';
import { digestOrigin } from './digest-origin.js';
import { changeableSpace } from './group-access.js';
import { groupPath } from './group-path.js';
import { sendGroupPage } from './group-page.js';

// Catch-up's switches, as /summary on [days] | off | digest <time> | digest off do them — but turning it on, which
// only the group does (/summary on tells its members there): the retention in the
// space's settings, off deleting the whole log and the digest, the digest a daily reminder of the reminder store
// (DigestSchedule). The notices are /summary's own words.

const texts = {
  days: { th: 'จำนวนวันต้องเป็นตัวเลข 1–{max}', en: 'The days must be a number from 1 to {max}.' },
  time: { th: 'บอกเวลาเป็นชั่วโมง:นาที เช่น 18:00', en: 'Give the time as hours:minutes, e.g. 18:00.' },
  onInTheGroup: {
    th: 'เปิดการเก็บข้อความได้ในกลุ่มเท่านั้น: พิมพ์ /summary on ในกลุ่ม เพื่อให้สมาชิกเห็นว่าบอทเริ่มเก็บข้อความ จากนั้นเปลี่ยนจำนวนวันหรือปิดที่หน้านี้ได้',
    en: 'Catch-up is turned on in the group only: type /summary on there, so its members see that the bot starts keeping messages; then change the days or turn it off here.',
  },
  noChat: {
    th: 'ยังตั้งสรุปประจำวันจากหน้านี้ไม่ได้: บอทยังไม่รู้ว่าจะส่งในห้องไหนของกลุ่ม ตั้งครั้งแรกในกลุ่มด้วย /summary digest 18:00 แล้วเปลี่ยนเวลาหรือปิดที่หน้านี้ได้',
    en: 'The daily digest cannot be set from this page yet: the bot does not know which chat of the group to post in. Set it once in the group with /summary digest 18:00; then change or stop it here.',
  },
} satisfies Record<string, Localized>;

const fieldChars = 20;

export function catchUpRoutes(services: AdminServices): AdminRoute[] {
  const digests = new DigestSchedule(services.storage.reminders, services.timeZone, defaultReminderLimits);
  const maxDays = spaceSettingsLimits.catchUpDays;
  const change = (space: string, admin: AdminRequest, patch: (current: SpaceSettings) => SpaceSettings) =>
    services.spaceSettings.update(space, (current) => ({ ...patch(current), updatedBy: admin.session.adminId, updatedAt: services.now().toISOString() }));
  const back = (space: string) => groupPath(space, '#catch-up');

  return [
    {
      method: 'POST',
      path: '/admin/groups/:space/catch-up',
      body: 'form',
      handle: async (admin) => {
        const space = await changeableSpace(services, admin);
        if (space === undefined) return;
        const { language } = admin;
        const typed = (admin.form.get('days') ?? '').slice(0, fieldChars);
        const request = parseSummaryRequest(['on', ...splitWords(typed)], maxDays);
        const days = request.kind === 'on' ? (request.days ?? services.catchUpDefaultDays) : undefined;
        if (days === undefined)
          return sendGroupPage(services, admin, space, {
            status: 400,
            catchUp: { form: 'catch-up', text: say(texts.days, language, { max: maxDays }), typed },
          });
        // Turned on in the group only, where /summary on tells its members; the page changes the days of a log kept.
        let wasOn = false;
        await change(space, admin, (current) => {
          wasOn = current.catchUpDays !== undefined;
          return wasOn ? { ...current, catchUpDays: days } : current;
        });
        if (!wasOn)
          return sendGroupPage(services, admin, space, { status: 409, catchUp: { form: 'catch-up', text: say(texts.onInTheGroup, language), typed } });
        services.log.info({ space, days, by: admin.session.adminId }, 'catch-up days changed on the admin page');
        await admin.audit('catch-up-days', { space, days });
        admin.redirect(back(space), say(catchUpTexts.retentionChanged, language, { days }));
      },
    },
    {
      method: 'POST',
      path: '/admin/groups/:space/catch-up/off',
      body: 'form',
      handle: async (admin) => {
        const space = await changeableSpace(services, admin);
        if (space === undefined) return;
        if ((await services.spaceSettings.get(space)).catchUpDays === undefined)
          return admin.redirect(back(space), say(catchUpTexts.alreadyOff, admin.language));
        await change(space, admin, ({ catchUpDays: _days, ...rest }) => rest);
        const count = await services.storage.groupLog.deleteSpace(space);
        await digests.clear(space);
        services.log.info({ space, deleted: count, by: admin.session.adminId }, 'catch-up turned off on the admin page');
        await admin.audit('catch-up-off', { space, deleted: count });
        admin.redirect(back(space), say(catchUpTexts.turnedOff, admin.language, { count }));
      },
    },
    {
      method: 'POST',
      path: '/admin/groups/:space/digest',
      body: 'form',
      handle: async (admin) => {
        const space = await changeableSpace(services, admin);
        if (space === undefined) return;
        const { language } = admin;
        const settings = await services.spaceSettings.get(space);
        if (settings.catchUpDays === undefined) return admin.redirect(back(space), say(catchUpTexts.alreadyOff, language));
        const typed = (admin.form.get('time') ?? '').slice(0, fieldChars);
        const problem = (text: Localized) =>
          sendGroupPage(services, admin, space, { status: 400, catchUp: { form: 'digest', text: say(text, language), typed } });
        const now = services.now();
        // The words /summary digest reads ("18:00" from the time field), so a time means the same in both.
        const when = typed.trim() === '' ? undefined : parseWhen(`ทุกวัน ${typed}`, { now, timeZone: services.timeZone });
        if (when?.kind !== 'at') return problem(texts.time);
        const origin = digestOrigin(await services.storage.reminders.list(space), space, admin.session);
        if (!origin) return problem(texts.noChat);
        const time = wallClockOf(when.at, services.timeZone);
        // The group's language when it chose one, else that of the reminder whose chat it takes.
        const groupLanguage = settings.language === 'th' || settings.language === 'en' ? settings.language : origin.language;
        const result = await digests.set(origin.message, { hour: time.hour, minute: time.minute }, groupLanguage, now);
        if (!result.added) return problem(catchUpTexts.digestFull);
        const clock = `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')}`;
        services.log.info({ space, time: clock, by: admin.session.adminId }, 'daily digest set on the admin page');
        await admin.audit('digest-set', { space, time: clock });
        admin.redirect(
          back(space),
          say(catchUpTexts.digestOn, language, { time: clock, next: describeWhen(new Date(result.reminder.dueAt), undefined, language, services.timeZone) }),
        );
      },
    },
    {
      method: 'POST',
      path: '/admin/groups/:space/digest/off',
      body: 'form',
      handle: async (admin) => {
        const space = await changeableSpace(services, admin);
        if (space === undefined) return;
        const count = await digests.clear(space);
        if (count > 0) await admin.audit('digest-off', { space });
        admin.redirect(back(space), say(count > 0 ? catchUpTexts.digestOff : catchUpTexts.digestNone, admin.language));
      },
    },
  ];
}
