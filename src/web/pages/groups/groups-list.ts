import { formatNumber } from '../../../commands/usage-report.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { Language } from '../../../shared/types.js';
import type { AdminRoute } from '../../admin-route.js';
import { html, type Html } from '../../html.js';
import { seesEverything, visibleSpaces } from '../../web-scope.js';
import type { AdminServices } from '../admin-services.js';
import { spaceKeyChars } from './group-access.js';
import { groupPath } from './group-path.js';
import { knownSpaces, type KnownSpace } from './known-spaces.js';

// GET /admin/groups: the spaces this session may see (a bot admin: every space the stores know of; a group admin:
// the spaces of their scope), each with what it has — knowledge bases, the month's turns, reminders, catch-up.
// `?space=<key>` opens one by its key (a space only its settings know of).

const texts = {
  title: { th: 'กลุ่มและห้องแชต', en: 'Groups and chats' },
  group: { th: 'กลุ่ม', en: 'Group' },
  platform: { th: 'แพลตฟอร์ม', en: 'Platform' },
  knowledge: { th: 'คลังความรู้', en: 'Knowledge bases' },
  turns: { th: 'ครั้ง (30 วัน)', en: 'Turns (30 days)' },
  reminders: { th: 'การเตือน', en: 'Reminders' },
  catchUp: { th: 'เก็บข้อความไว้สรุป', en: 'Catch-up' },
  catchUpOn: { th: '{days} วัน', en: '{days} days' },
  off: { th: 'ปิด', en: 'off' },
  none: { th: 'ยังไม่มีกลุ่มที่รู้จัก', en: 'No groups known yet' },
  cut: { th: 'แสดง {count} กลุ่มแรก', en: 'The first {count} groups' },
  open: { th: 'เปิดกลุ่มด้วยรหัส', en: 'Open a group by its key' },
  openHint: {
    th: 'รหัสของกลุ่ม เช่น telegram:-100123 (พิมพ์ /whoami ในกลุ่มเพื่อดู) ใช้เมื่อกลุ่มไม่อยู่ในรายการ เช่น มีแค่การตั้งค่า',
    en: 'The group’s key, e.g. telegram:-100123 (type /whoami in the group to see it), for a group not listed (one with settings only, say)',
  },
  openButton: { th: 'เปิด', en: 'Open' },
} satisfies Record<string, Localized>;

/** Spaces listed at most: each costs a read of its reminders and settings. */
const listedSpaces = 200;

interface Listed extends KnownSpace {
  spaceKey: string;
  reminders: number | undefined;
  catchUpDays: number | undefined;
}

function table(spaces: readonly Listed[], language: Language): Html {
  const t = (text: Localized) => pick(text, language);
  if (spaces.length === 0) return html`<p class="muted" id="group-list-empty">${t(texts.none)}</p>`;
  return html`<table class="responsive" id="group-list">
    <thead>
      <tr>
        <th scope="col">${t(texts.group)}</th>
        <th scope="col">${t(texts.platform)}</th>
        <th scope="col" class="number">${t(texts.knowledge)}</th>
        <th scope="col" class="number">${t(texts.turns)}</th>
        <th scope="col" class="number">${t(texts.reminders)}</th>
        <th scope="col">${t(texts.catchUp)}</th>
      </tr>
    </thead>
    <tbody>
      ${spaces.map(
        (space) =>
          html`<tr data-space="${space.spaceKey}">
            <td data-label="${t(texts.group)}">
              <a href="${groupPath(space.spaceKey)}"><code>${space.spaceKey}</code></a>
            </td>
            <td data-label="${t(texts.platform)}">${space.spaceKey.split(':')[0]}</td>
            <td class="number" data-label="${t(texts.knowledge)}">${formatNumber(space.knowledgeBases)}</td>
            <td class="number" data-label="${t(texts.turns)}">${formatNumber(space.turns)}</td>
            <td class="number" data-label="${t(texts.reminders)}">${space.reminders === undefined ? '—' : formatNumber(space.reminders)}</td>
            <td data-label="${t(texts.catchUp)}">
              ${space.catchUpDays === undefined ? t(texts.off) : say(texts.catchUpOn, language, { days: space.catchUpDays })}
            </td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

function openForm(language: Language): Html {
  return html`<form method="get" action="/admin/groups" id="group-open">
    <label for="group-open-key">${pick(texts.open, language)}</label>
    <p class="muted">${pick(texts.openHint, language)}</p>
    <input type="text" id="group-open-key" name="space" maxlength="${spaceKeyChars}" required autocomplete="off" />
    <button type="submit">${pick(texts.openButton, language)}</button>
  </form>`;
}

export function groupListRoutes(services: AdminServices): AdminRoute[] {
  return [
    {
      method: 'GET',
      path: '/admin/groups',
      handle: async (admin) => {
        const { language, session } = admin;
        const asked = (admin.query.get('space') ?? '').trim();
        // The page of any key: it answers 404 itself when the key is not this session's to see.
        if (asked !== '' && asked.length <= spaceKeyChars) return admin.redirect(groupPath(asked));
        const known = await knownSpaces(services);
        const keys = visibleSpaces(session, known.keys());
        const listed = await Promise.all(
          keys.slice(0, listedSpaces).map(async (spaceKey): Promise<Listed> => ({
            spaceKey,
            ...(known.get(spaceKey) ?? { knowledgeBases: 0, turns: 0 }),
            reminders: await services.storage.reminders
              .list(spaceKey)
              .then((reminders) => reminders.length)
              .catch(() => undefined),
            catchUpDays: await services.spaceSettings
              .get(spaceKey)
              .then((settings) => settings.catchUpDays)
              .catch(() => undefined),
          })),
        );
        const body = html`<section>
            ${table(listed, language)} ${keys.length > listedSpaces ? html`<p class="muted">${say(texts.cut, language, { count: listedSpaces })}</p>` : ''}
          </section>
          ${seesEverything(session.scope) ? html`<section>${openForm(language)}</section>` : ''}`;
        admin.page({ title: pick(texts.title, language), current: 'groups', body });
      },
    },
  ];
}
