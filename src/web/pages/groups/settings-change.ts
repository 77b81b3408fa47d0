import { splitWords } from '../../../commands/parse.js';
import { parseSettingsRequest, type SettingsPatch } from '../../../commands/settings/settings-request.js';
import { changeRefusal, patchedSettings, settingsChangeTexts, type SettingsChange } from '../../../commands/settings/settings-change-rules.js';
import type { SpaceSettings } from '../../../settings/space-settings.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { AdminRoute } from '../../admin-route.js';
import { html } from '../../html.js';
import { webTexts } from '../../web-texts.js';
import type { AdminServices } from '../admin-services.js';
import { changeableSpace } from './group-access.js';
import { groupPath } from './group-path.js';
import { sendGroupPage } from './group-page.js';

// POST /admin/groups/:space/settings: one setting, checked exactly as `/settings <topic> <value>` checks it — the
// form becomes that command's words and goes through its parser (the same ranges, words and Thai problems) — then
// the same refusals (a group admin raising the quota, instructions holding a credential) and the same store update.

/** The settings a form may name: /settings's topics. */
const topics = new Set(['language', 'trigger', 'context', 'quota', 'streaming', 'quotes', 'instructions']);

// The page's own refusals; the rest are /settings's (src/commands/settings/settings-change-rules.ts).
const texts = {
  everyMessage: {
    th: 'การตอบทุกข้อความตั้งได้ในห้องนั้นเท่านั้น: พิมพ์ /settings trigger every-message ในห้องที่ต้องการ',
    en: 'Answering every message is set in that channel only: type /settings trigger every-message there.',
  },
  noScanner: { th: 'ตอนนี้ตรวจคำแนะนำหาข้อมูลลับไม่ได้ จึงยังไม่บันทึก', en: 'The instructions cannot be checked for secrets right now, so they were not saved.' },
} satisfies Record<string, Localized>;

/** What a form field may hold: instructions are 500 characters, so a longer field is refused by their own check. */
const valueChars = 2_000;
const namesChars = 200;

/** The `/settings` words the form stands for. */
function commandOf(form: URLSearchParams, topic: string): { rest: string; typed: string } {
  const typed = (form.get('value') ?? '').slice(0, valueChars);
  const value = form.get('default') === '1' ? 'default' : typed;
  const names = topic === 'trigger' && value === 'name' ? ` ${(form.get('names') ?? '').slice(0, namesChars)}` : '';
  return { rest: `${topic} ${value}${names}`, typed: topic === 'trigger' ? (form.get('names') ?? '').slice(0, namesChars) : typed };
}

function refusalOf(request: SettingsChange, current: SpaceSettings, services: AdminServices, global: boolean, language: 'th' | 'en'): string | undefined {
  if (request.patch.trigger === 'every-message' && current.trigger !== 'every-message') return pick(texts.everyMessage, language);
  const limit = services.settingsDefaults?.quotaPerMinute;
  if (typeof request.patch.instructions === 'string' && !services.credentialKinds) return pick(texts.noScanner, language);
  return changeRefusal(request, {
    quotaLimit: limit ?? 0,
    mayRaiseQuota: global,
    credentialKinds: services.credentialKinds ?? (() => []),
    language,
  });
}

export function settingsChangeRoutes(services: AdminServices): AdminRoute[] {
  return [
    {
      method: 'POST',
      path: '/admin/groups/:space/settings',
      body: 'form',
      handle: async (admin) => {
        const space = await changeableSpace(services, admin);
        if (space === undefined) return;
        const { language, session } = admin;
        const topic = admin.form.get('setting') ?? '';
        if (!topics.has(topic)) return admin.page({ title: pick(webTexts.badForm, language), current: 'groups', status: 400, body: html`` });
        const { rest, typed } = commandOf(admin.form, topic);
        const request = parseSettingsRequest({ name: 'settings', rest, words: splitWords(rest) });
        const problem = (text: string) => sendGroupPage(services, admin, space, { status: 400, settings: { setting: topic, text, typed } });
        if (request.kind === 'invalid') return problem(say(request.problem, language, request.values ?? {}));
        if (request.kind !== 'change') return problem(pick(webTexts.badForm, language));
        const refusal = refusalOf(request, await services.spaceSettings.get(space), services, session.scope.kind === 'global', language);
        if (refusal) return problem(refusal);
        const patch: SettingsPatch = { ...request.patch };
        // Every message stays with the conversation it was set in; any other trigger has none (as /settings does).
        if (request.topic === 'trigger' && patch.trigger !== 'every-message') patch.triggerConversation = null;
        await services.spaceSettings.update(space, (current) => patchedSettings(current, patch, session.adminId, services.now().toISOString()));
        // Ids and the setting's name only: instructions are a person's text.
        services.log.info({ space, topic: request.topic, by: session.adminId }, 'space settings changed on the admin page');
        await admin.audit('group-setting', { space, setting: request.topic });
        admin.redirect(groupPath(space, '#settings'), pick(settingsChangeTexts.changed, language));
      },
    },
  ];
}
