import type { Reminder } from '../../../reminders/reminder-store.js';
import { reminderTexts } from '../../../reminders/reminder-texts.js';
import { describeWhen } from '../../../reminders/when/describe-when.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { Language } from '../../../shared/types.js';
import type { AdminRoute } from '../../admin-route.js';
import { html, type Html } from '../../html.js';
import type { AdminServices } from '../admin-services.js';
import { changeableSpace } from './group-access.js';
import { groupPath } from './group-path.js';
import { confirmedForm } from '../../form-fields.js';

// A space's reminders as /reminders lists them (number, subject, when in the group's words with its Buddhist-Era
// year, who set it), each with a cancel button that does what `/remind cancel N` does. The daily digest is one of
// them (its subject is its name).

const texts = {
  heading: { th: 'การเตือน (/reminders)', en: 'Reminders (/reminders)' },
  number: { th: 'เลข', en: 'No.' },
  subject: { th: 'เรื่อง', en: 'Subject' },
  when: { th: 'เมื่อ', en: 'When' },
  by: { th: 'ตั้งโดย', en: 'Set by' },
  cancel: { th: 'ยกเลิก', en: 'Cancel' },
  confirmCancel: { th: 'ยกเลิกการเตือน #{number}?', en: 'Cancel reminder #{number}?' },
  none: { th: 'ยังไม่มีการเตือนในห้องนี้', en: 'No reminders in this chat' },
} satisfies Record<string, Localized>;

/** A reminder number in a path: digits only, as /remind cancel takes (Thai digits aside: a form sends ours). */
function reminderNumber(text: string): number | undefined {
  if (text.length === 0 || text.length > 6 || ![...text].every((character) => character >= '0' && character <= '9')) return undefined;
  const number = Number(text);
  return number >= 1 ? number : undefined;
}

export function remindersSection(spaceKey: string, reminders: readonly Reminder[], csrfToken: string, language: Language): Html {
  const t = (text: Localized) => pick(text, language);
  if (reminders.length === 0)
    return html`<section id="reminders">
      <h2>${t(texts.heading)}</h2>
      <p class="muted" id="reminder-list-empty">${t(texts.none)}</p>
    </section>`;
  return html`<section id="reminders">
    <h2>${t(texts.heading)}</h2>
    <table class="responsive" id="reminder-list">
      <thead>
        <tr>
          <th scope="col">${t(texts.number)}</th>
          <th scope="col">${t(texts.subject)}</th>
          <th scope="col">${t(texts.when)}</th>
          <th scope="col">${t(texts.by)}</th>
          <th scope="col"><span class="visually-hidden">${t(texts.cancel)}</span></th>
        </tr>
      </thead>
      <tbody>
        ${reminders.map(
          (reminder) =>
            html`<tr data-reminder="${reminder.number}" ${reminder.kind === 'digest' ? html`data-kind="digest"` : ''}>
              <td data-label="${t(texts.number)}">#${reminder.number}</td>
              <td data-label="${t(texts.subject)}">${reminder.text || say(reminderTexts.noSubject, language)}</td>
              <td data-label="${t(texts.when)}">${describeWhen(new Date(reminder.dueAt), reminder.recurrence, language, reminder.timeZone)}</td>
              <td data-label="${t(texts.by)}">${reminder.userName}</td>
              <td>
                ${confirmedForm({
                  action: groupPath(spaceKey, `/reminders/${reminder.number}/cancel`),
                  className: 'inline',
                  confirm: say(texts.confirmCancel, language, { number: reminder.number }),
                  label: t(texts.cancel),
                  csrfToken,
                })}
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

export function reminderRoutes(services: AdminServices): AdminRoute[] {
  return [
    {
      method: 'POST',
      path: '/admin/groups/:space/reminders/:number/cancel',
      body: 'form',
      handle: async (admin) => {
        const space = await changeableSpace(services, admin);
        if (space === undefined) return;
        const { language } = admin;
        const number = reminderNumber(admin.params.number ?? '');
        if (number === undefined) return admin.redirect(groupPath(space, '#reminders'), say(reminderTexts.cancelUsage, language));
        const removed = await services.storage.reminders.cancel(space, number);
        if (!removed) return admin.redirect(groupPath(space, '#reminders'), say(reminderTexts.cancelMissing, language, { number }));
        services.log.info({ space, reminder: number, by: admin.session.adminId }, 'reminder cancelled on the admin page');
        await admin.audit('reminder-cancel', { space, reminder: number });
        admin.redirect(
          groupPath(space, '#reminders'),
          say(reminderTexts.cancelled, language, { number, subject: removed.text || say(reminderTexts.noSubject, language) }),
        );
      },
    },
  ];
}
