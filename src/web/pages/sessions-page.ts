import { pick, say, type Localized } from '../../shared/i18n.js';
import type { Language } from '../../shared/types.js';
import type { AdminRoute } from '../admin-route.js';
import type { AuditEntry } from '../audit-log.js';
import { html, type Html } from '../html.js';
import type { AdminServices } from './admin-services.js';
import { confirmedForm } from '../form-fields.js';

// Who is signed in and what was changed: the person's own sessions (each can be ended, all at once like
// `/web logout all`), and the audit log — every entry for a bot admin, a group admin's own entries for them.

const texts = {
  title: { th: 'การเข้าสู่ระบบและบันทึกการเปลี่ยนแปลง', en: 'Sessions and audit log' },
  yours: { th: 'การเข้าสู่ระบบของคุณ', en: 'Your sessions' },
  started: { th: 'เริ่ม', en: 'Started' },
  lastUsed: { th: 'ใช้ล่าสุด', en: 'Last used' },
  thisOne: { th: '(เบราว์เซอร์นี้)', en: '(this browser)' },
  logoutAll: { th: 'ออกจากระบบทุกที่', en: 'Log out everywhere' },
  confirmLogoutAll: { th: 'ออกจากระบบทุกเบราว์เซอร์ รวมถึงเบราว์เซอร์นี้?', en: 'Log out of every browser, this one included?' },
  audit: { th: 'บันทึกการเปลี่ยนแปลง (ล่าสุด)', en: 'Audit log (latest)' },
  when: { th: 'เวลา', en: 'When' },
  who: { th: 'ผู้ทำ', en: 'Who' },
  what: { th: 'การเปลี่ยนแปลง', en: 'Change' },
  detail: { th: 'รายละเอียด', en: 'Detail' },
  none: { th: 'ยังไม่มีการเปลี่ยนแปลง', en: 'No changes yet' },
  loggedOut: { th: 'ออกจากระบบทุกที่แล้ว ({count} รายการ)', en: 'Logged out everywhere ({count} sessions)' },
} satisfies Record<string, Localized>;

/** Entries shown (the store keeps 500, the log all of them). */
const shownEntries = 100;

function timeText(at: number, language: Language, timeZone: string): string {
  return new Intl.DateTimeFormat(language === 'th' ? 'th-TH' : 'en-GB', { dateStyle: 'medium', timeStyle: 'medium', timeZone }).format(at);
}

function auditTable(entries: AuditEntry[], language: Language, timeZone: string): Html {
  if (entries.length === 0) return html`<p class="muted">${pick(texts.none, language)}</p>`;
  const t = (text: Localized) => pick(text, language);
  return html`<table class="responsive">
    <thead>
      <tr>
        <th>${t(texts.when)}</th>
        <th>${t(texts.who)}</th>
        <th>${t(texts.what)}</th>
        <th>${t(texts.detail)}</th>
      </tr>
    </thead>
    <tbody>
      ${entries.map(
        (entry) =>
          html`<tr>
            <td data-label="${t(texts.when)}">${timeText(entry.at, language, timeZone)}</td>
            <td data-label="${t(texts.who)}">${entry.who}</td>
            <td data-label="${t(texts.what)}">${entry.action}</td>
            <td data-label="${t(texts.detail)}">
              ${Object.entries(entry.detail)
                .map(([key, value]) => `${key}: ${value}`)
                .join(' · ')}
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

export function sessionRoutes(services: AdminServices): AdminRoute[] {
  return [
    {
      method: 'GET',
      path: '/admin/sessions',
      handle: async (admin) => {
        const { language, session } = admin;
        const t = (text: Localized) => pick(text, language);
        const live = await services.sessions.list(session.adminId);
        const entries = (await services.audit.latest())
          .filter((entry) => session.scope.kind === 'global' || entry.who === session.adminId)
          .slice(0, shownEntries);
        const body = html`<section>
            <h2>${t(texts.yours)}</h2>
            <table>
              <thead>
                <tr>
                  <th>${t(texts.started)}</th>
                  <th>${t(texts.lastUsed)}</th>
                </tr>
              </thead>
              <tbody>
                ${live.map(
                  (each) =>
                    html`<tr>
                      <td>${timeText(each.createdAt, language, services.timeZone)} ${each.id === session.id ? t(texts.thisOne) : ''}</td>
                      <td>${timeText(each.lastSeenAt, language, services.timeZone)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
            ${confirmedForm({ action: '/admin/sessions/logout-all', confirm: t(texts.confirmLogoutAll), label: t(texts.logoutAll), csrfToken: session.csrfToken })}
          </section>
          <section>
            <h2>${t(texts.audit)}</h2>
            ${auditTable(entries, language, services.timeZone)}
          </section>`;
        admin.page({ title: t(texts.title), current: 'sessions', body });
      },
    },
    {
      method: 'POST',
      path: '/admin/sessions/logout-all',
      body: 'form',
      handle: async (admin) => {
        const count = await services.sessions.endAll(admin.session.adminId);
        await admin.audit('logout-all', { sessions: count });
        admin.redirect('/admin', say(texts.loggedOut, admin.language, { count }));
      },
    },
  ];
}
