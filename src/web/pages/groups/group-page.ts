import { spaceSettingsLimits } from '../../../settings/space-settings.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { AdminRequest, AdminRoute } from '../../admin-route.js';
import { html } from '../../html.js';
import type { AdminServices } from '../admin-services.js';
import { catchUpSection, type CatchUpView } from './catch-up-section.js';
import { visibleSpace } from './group-access.js';
import { remindersSection } from './reminders-section.js';
import { settingsSection, type SettingProblem } from './settings-section.js';

// GET /admin/groups/:space: one space's settings, reminders and catch-up, each section with its own forms. A change
// that is refused is answered with this page again (400), the problem at its form and what was typed kept.

const texts = {
  title: { th: 'กลุ่ม {space}', en: 'Group {space}' },
  all: { th: '← กลุ่มทั้งหมด', en: '← All groups' },
  usage: { th: 'การใช้งานของบอท', en: 'Usage' },
} satisfies Record<string, Localized>;

/** Days kept when catch-up is turned on without a number, if the wiring did not say (/summary on's default). */
const fallbackCatchUpDays = 7;

export interface GroupPageProblems {
  status?: number;
  settings?: SettingProblem;
  catchUp?: CatchUpView['problem'];
}

export async function sendGroupPage(services: AdminServices, admin: AdminRequest, space: string, problems: GroupPageProblems = {}): Promise<void> {
  const { language, session } = admin;
  const { storage } = services;
  const [settings, reminders, count, oldest] = await Promise.all([
    services.spaceSettings.get(space),
    storage.reminders.list(space),
    storage.groupLog.count(space),
    storage.groupLog.oldest(space),
  ]);
  const defaults = services.settingsDefaults;
  const now = services.now();
  const body = html`<p><a href="/admin/groups">${pick(texts.all, language)}</a> · <a href="/admin/usage">${pick(texts.usage, language)}</a></p>
    ${settingsSection({
      spaceKey: space,
      settings,
      defaults,
      // A group admin may lower the quota only; a bot admin may raise it to the ceiling.
      quotaMax:
        session.scope.kind === 'global'
          ? spaceSettingsLimits.quotaPerMinute
          : Math.min(spaceSettingsLimits.quotaPerMinute, defaults?.quotaPerMinute ?? spaceSettingsLimits.quotaPerMinute),
      csrfToken: session.csrfToken,
      language,
      timeZone: services.timeZone,
      now,
      ...(problems.settings ? { problem: problems.settings } : {}),
    })}
    ${remindersSection(space, reminders, session.csrfToken, language)}
    ${catchUpSection({
      spaceKey: space,
      catchUpDays: settings.catchUpDays,
      count,
      oldest,
      digest: reminders.find((reminder) => reminder.kind === 'digest'),
      defaultDays: services.catchUpDefaultDays ?? fallbackCatchUpDays,
      csrfToken: session.csrfToken,
      language,
      timeZone: services.timeZone,
      ...(problems.catchUp ? { problem: problems.catchUp } : {}),
    })}`;
  admin.page({ title: say(texts.title, language, { space }), current: 'groups', body, ...(problems.status ? { status: problems.status } : {}) });
}

export function groupPageRoutes(services: AdminServices): AdminRoute[] {
  return [
    {
      method: 'GET',
      path: '/admin/groups/:space',
      handle: async (admin) => {
        const space = visibleSpace(admin);
        if (space !== undefined) await sendGroupPage(services, admin, space);
      },
    },
  ];
}
