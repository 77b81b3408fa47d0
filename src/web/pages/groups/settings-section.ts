import type { SettingsDefaults } from '../../../commands/settings/settings-view.js';
import { spaceSettingsLimits, type SpaceSettings } from '../../../settings/space-settings.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import { sentAtText } from '../../../shared/sent-at-text.js';
import type { Language, Platform } from '../../../shared/types.js';
import { html, type Html } from '../../html.js';
import { groupPath } from './group-path.js';
import { csrfField } from '../../form-fields.js';

// A space's /settings as forms, one per setting (each posts its own change, as `/settings <topic> <value>` does):
// the current value selected or filled in, the bot-wide default named beside "default".

const texts = {
  heading: { th: 'การตั้งค่า (/settings)', en: 'Settings (/settings)' },
  save: { th: 'บันทึก', en: 'Save' },
  useDefault: { th: 'ใช้ค่าเริ่มต้น', en: 'Use the default' },
  clear: { th: 'ล้าง', en: 'Clear' },
  byDefault: { th: 'ค่าเริ่มต้น ({value})', en: 'Default ({value})' },
  defaultUnknown: { th: 'ค่าเริ่มต้น', en: 'Default' },
  language: { th: 'ภาษา', en: 'Language' },
  th: { th: 'ไทย', en: 'Thai' },
  en: { th: 'อังกฤษ', en: 'English' },
  follow: { th: 'ตามภาษาของผู้ถามแต่ละคน', en: "each asker's own language" },
  trigger: { th: 'การเรียกบอทในกลุ่ม', en: 'How the bot is called in the group' },
  mention: { th: 'แท็กหรือตอบกลับข้อความของบอท', en: "a mention or a reply to the bot's message" },
  name: { th: 'แท็ก ตอบกลับ หรือเรียกชื่อ', en: 'a mention, a reply, or its name' },
  everyMessage: { th: 'ตอบทุกข้อความในห้อง {conversation}', en: 'every message in {conversation}' },
  everyMessageHint: {
    th: 'การตอบทุกข้อความตั้งได้ในห้องนั้นเท่านั้น: พิมพ์ /settings trigger every-message ในห้องที่ต้องการ',
    en: 'Answering every message is set in that channel only: type /settings trigger every-message there.',
  },
  names: { th: 'ชื่อเรียก (เว้นวรรคระหว่างชื่อ ไม่เกิน {count} ชื่อ)', en: 'Names (separated by spaces, at most {count})' },
  context: { th: 'ข้อความล่าสุดในกลุ่มที่ส่งไปกับคำถาม (0–{max})', en: 'Recent group messages sent with a question (0–{max})' },
  quota: { th: 'โควตาต่อผู้ใช้ (ข้อความต่อนาที, 1–{max})', en: 'Quota per user (messages a minute, 1–{max})' },
  streaming: { th: 'แสดงคำตอบระหว่างเขียน', en: 'Show answers while they are written' },
  quotes: { th: 'อ่านข้อความที่ผู้ถามตอบกลับ (อ้างอิง)', en: 'Read the message a question replies to' },
  on: { th: 'เปิด', en: 'on' },
  off: { th: 'ปิด', en: 'off' },
  instructions: {
    th: 'คำแนะนำเพิ่มเติมสำหรับบอท (ไม่เกิน {chars} ตัวอักษร {lines} บรรทัด ห้ามใส่ข้อมูลลับ)',
    en: 'Extra instructions for the bot (at most {chars} characters on {lines} lines; never secrets)',
  },
  updated: { th: 'แก้ไขล่าสุดโดย {who} เมื่อ {when}', en: 'Last changed by {who} on {when}' },
} satisfies Record<string, Localized>;

/** A change that was refused: shown at its form, with what was typed. */
export interface SettingProblem {
  setting: string;
  text: string;
  typed?: string;
}

export interface SettingsView {
  spaceKey: string;
  settings: SpaceSettings;
  defaults: SettingsDefaults | undefined;
  /** The highest quota this session may set (a group admin: the bot's own). */
  quotaMax: number;
  csrfToken: string;
  language: Language;
  timeZone: string;
  now: Date;
  problem?: SettingProblem;
}

const platformOf = (spaceKey: string): Platform | undefined => {
  const platform = spaceKey.split(':')[0];
  return platform === 'telegram' || platform === 'discord' || platform === 'line' || platform === 'console' ? platform : undefined;
};

function option(value: string, label: string, selected: boolean): Html {
  return html`<option value="${value}" ${selected ? html`selected` : ''}>${label}</option>`;
}

function defaultLabel(view: SettingsView, value: ((defaults: SettingsDefaults) => string) | undefined): string {
  return view.defaults && value ? say(texts.byDefault, view.language, { value: value(view.defaults) }) : pick(texts.defaultUnknown, view.language);
}

function form(view: SettingsView, setting: string, label: string, control: Html, buttons: Html = html``): Html {
  const problem = view.problem?.setting === setting ? view.problem : undefined;
  return html`<form method="post" action="${groupPath(view.spaceKey, '/settings')}" class="setting" id="setting-${setting}">
    ${csrfField(view.csrfToken)}
    <input type="hidden" name="setting" value="${setting}" />
    <label for="setting-${setting}-value">${label}</label>
    ${control} ${problem ? html`<p class="error" role="alert" id="settings-error">${problem.text}</p>` : ''}
    <div class="buttons">
      <button type="submit" class="primary">${pick(texts.save, view.language)}</button>
      ${buttons}
    </div>
  </form>`;
}

function choice(view: SettingsView, setting: string, label: string, current: string | undefined, choices: [string, string][], fallback: string): Html {
  const control = html`<select id="setting-${setting}-value" name="value">
    ${option('default', fallback, current === undefined)} ${choices.map(([value, text]) => option(value, text, value === current))}
  </select>`;
  return form(view, setting, label, control);
}

function numberForm(view: SettingsView, setting: 'context' | 'quota', current: number | undefined, min: number, max: number, fallback: string): Html {
  const t = (text: Localized) => pick(text, view.language);
  const typed = view.problem?.setting === setting ? view.problem.typed : undefined;
  const control = html`<input
    type="number"
    id="setting-${setting}-value"
    name="value"
    min="${min}"
    max="${max}"
    inputmode="numeric"
    value="${typed ?? current ?? ''}"
    placeholder="${fallback}"
  />`;
  return form(
    view,
    setting,
    say(setting === 'context' ? texts.context : texts.quota, view.language, { max }),
    control,
    html`<button type="submit" name="default" value="1">${t(texts.useDefault)} (${fallback})</button>`,
  );
}

function triggerForm(view: SettingsView): Html {
  const { settings, language } = view;
  const t = (text: Localized) => pick(text, language);
  const choices: [string, string][] = [
    ['mention', t(texts.mention)],
    ['name', t(texts.name)],
  ];
  // Every message is for the conversation it was set in: kept here when it is the space's choice, set in the chat.
  if (settings.trigger === 'every-message')
    choices.push(['every-message', say(texts.everyMessage, language, { conversation: settings.triggerConversation ?? view.spaceKey })]);
  const typed = view.problem?.setting === 'trigger' ? view.problem.typed : undefined;
  const control = html`<select id="setting-trigger-value" name="value">
      ${option('default', say(texts.byDefault, language, { value: t(texts.mention) }), settings.trigger === undefined)}
      ${choices.map(([value, text]) => option(value, text, value === settings.trigger))}
    </select>
    <label for="setting-trigger-names">${say(texts.names, language, { count: spaceSettingsLimits.names })}</label>
    <input
      type="text"
      id="setting-trigger-names"
      name="names"
      maxlength="100"
      value="${typed ?? (settings.names ?? []).join(' ')}"
      placeholder="${(view.defaults?.names ?? []).join(' ')}"
      autocomplete="off"
    />
    <p class="muted">${t(texts.everyMessageHint)}</p>`;
  return form(view, 'trigger', t(texts.trigger), control);
}

function instructionsForm(view: SettingsView): Html {
  const t = (text: Localized) => pick(text, view.language);
  const { instructionsChars: chars, instructionsLines: lines } = spaceSettingsLimits;
  const typed = view.problem?.setting === 'instructions' ? view.problem.typed : undefined;
  const control = html`<textarea id="setting-instructions-value" name="value" rows="5" maxlength="${chars}">
${typed ?? view.settings.instructions ?? ''}</textarea>`;
  return form(
    view,
    'instructions',
    say(texts.instructions, view.language, { chars, lines }),
    control,
    html`<button type="submit" name="default" value="1">${t(texts.clear)}</button>`,
  );
}

export function settingsSection(view: SettingsView): Html {
  const { settings, language, defaults } = view;
  const t = (text: Localized) => pick(text, language);
  const onOff = (value: boolean | undefined) => (value === undefined ? undefined : value ? 'on' : 'off');
  const onOffChoices: [string, string][] = [
    ['on', t(texts.on)],
    ['off', t(texts.off)],
  ];
  const platform = platformOf(view.spaceKey);
  const streamsByDefault = defaults && platform ? defaults.streams(platform) : undefined;
  const updated =
    settings.updatedBy && settings.updatedAt
      ? html`<p class="muted" id="settings-updated">
          ${say(texts.updated, language, { who: settings.updatedBy, when: sentAtText(new Date(settings.updatedAt), language, view.timeZone, view.now.getTime()) })}
        </p>`
      : '';
  return html`<section id="settings">
    <h2>${t(texts.heading)}</h2>
    ${updated}
    ${choice(
      view,
      'language',
      t(texts.language),
      settings.language,
      [
        ['th', t(texts.th)],
        ['en', t(texts.en)],
        ['follow', t(texts.follow)],
      ],
      defaultLabel(view, (known) => t(texts[known.language])),
    )}
    ${triggerForm(view)}
    ${numberForm(view, 'context', settings.groupContext, 0, spaceSettingsLimits.groupContext, defaults ? String(defaults.groupContext) : t(texts.defaultUnknown))}
    ${numberForm(view, 'quota', settings.quotaPerMinute, 1, view.quotaMax, defaults ? String(defaults.quotaPerMinute) : t(texts.defaultUnknown))}
    ${choice(
      view,
      'streaming',
      t(texts.streaming),
      onOff(settings.streaming),
      onOffChoices,
      streamsByDefault === undefined ? t(texts.defaultUnknown) : say(texts.byDefault, language, { value: t(streamsByDefault ? texts.on : texts.off) }),
    )}
    ${choice(view, 'quotes', t(texts.quotes), onOff(settings.quotes), onOffChoices, say(texts.byDefault, language, { value: t(texts.on) }))}
    ${instructionsForm(view)}
  </section>`;
}
