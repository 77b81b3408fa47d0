import type { Reminder } from '../../../reminders/reminder-store.js';
import { describeWhen } from '../../../reminders/when/describe-when.js';
import { spaceSettingsLimits } from '../../../settings/space-settings.js';
import { pick, say, type Localized } from '../../../shared/i18n.js';
import type { Language } from '../../../shared/types.js';
import { html, type Html } from '../../html.js';
import { groupPath } from './group-path.js';
import { confirmedForm, csrfField } from '../../form-fields.js';

// Catch-up as /summary on|off|digest switches it: whether the group's messages are kept and for how many days, how
// many are kept since when, and the daily digest's time — each a form of its own.

const texts = {
  heading: { th: 'เก็บข้อความไว้สรุป (/summary)', en: 'Catch-up (/summary)' },
  on: {
    th: 'เปิดอยู่: เก็บข้อความไว้ {days} วัน ตอนนี้มี {count} ข้อความ',
    en: 'On: messages are kept {days} days; {count} are kept now',
  },
  oldest: { th: 'ข้อความเก่าที่สุด: {when}', en: 'Oldest kept: {when}' },
  off: {
    th: 'ปิดอยู่: ไม่เก็บข้อความของกลุ่มนี้ (เมื่อเปิด จะเก็บชื่อที่แสดง เวลา และข้อความ ไม่รวมรหัสลับ เพื่อใช้ตอบ /summary เท่านั้น)',
    en: 'Off: this group’s messages are not kept (when on: display name, time and text, secrets masked, only for /summary)',
  },
  days: { th: 'จำนวนวันที่เก็บ (1–{max})', en: 'Days kept (1–{max})' },
  turnOn: { th: 'บันทึกจำนวนวัน', en: 'Save the days' },
  onInTheGroup: {
    th: 'เปิดได้ในกลุ่มเท่านั้น: พิมพ์ /summary on ในกลุ่ม เพื่อให้สมาชิกเห็นว่าบอทเริ่มเก็บข้อความ',
    en: 'Turned on in the group only: type /summary on there, so its members see that the bot starts keeping messages.',
  },
  turnOff: { th: 'ปิดและลบข้อความที่เก็บไว้ทั้งหมด', en: 'Turn off and delete every kept message' },
  confirmOff: { th: 'ปิดการเก็บข้อความ และลบข้อความที่เก็บไว้ทั้งหมด?', en: 'Turn catch-up off and delete every kept message?' },
  digest: { th: 'สรุปประจำวัน', en: 'Daily digest' },
  digestAt: { th: 'ตั้งไว้: {when}', en: 'Set: {when}' },
  digestNone: { th: 'ยังไม่ได้ตั้ง', en: 'Not set' },
  digestTime: { th: 'เวลา (ชั่วโมง:นาที เช่น 18:00)', en: 'Time (hours:minutes, e.g. 18:00)' },
  digestSave: { th: 'ตั้งเวลา', en: 'Set the time' },
  digestOff: { th: 'ปิดสรุปประจำวัน', en: 'Turn the digest off' },
  digestNeedsOn: { th: 'เปิดการเก็บข้อความก่อน จึงตั้งสรุปประจำวันได้', en: 'Turn catch-up on first to set a daily digest.' },
} satisfies Record<string, Localized>;

export interface CatchUpView {
  spaceKey: string;
  catchUpDays: number | undefined;
  /** Entries kept, and when the oldest was said (epoch ms). */
  count: number;
  oldest: number | undefined;
  digest: Reminder | undefined;
  defaultDays: number;
  csrfToken: string;
  language: Language;
  timeZone: string;
  /** A refused change: its text, at the form it came from. */
  problem?: { form: 'catch-up' | 'digest'; text: string; typed: string };
}

const twoDigits = (value: number) => String(value).padStart(2, '0');

function problemAt(view: CatchUpView, form: 'catch-up' | 'digest'): Html {
  return view.problem?.form === form ? html`<p class="error" role="alert" id="${form}-error">${view.problem.text}</p>` : html``;
}

function digestForms(view: CatchUpView): Html {
  const { digest, language } = view;
  const t = (text: Localized) => pick(text, language);
  if (view.catchUpDays === undefined) return html`<p class="muted">${t(texts.digestNeedsOn)}</p>`;
  const time = digest?.timeOfDay ? `${twoDigits(digest.timeOfDay.hour)}:${twoDigits(digest.timeOfDay.minute)}` : '';
  const typed = view.problem?.form === 'digest' ? view.problem.typed : undefined;
  return html`<p id="digest-state" data-time="${time}">
      ${digest ? say(texts.digestAt, language, { when: describeWhen(new Date(digest.dueAt), digest.recurrence, language, digest.timeZone) }) : t(texts.digestNone)}
    </p>
    <form method="post" action="${groupPath(view.spaceKey, '/digest')}" id="digest-set">
      ${csrfField(view.csrfToken)}
      <label for="digest-time">${t(texts.digestTime)}</label>
      <input type="time" id="digest-time" name="time" value="${typed ?? (time || '18:00')}" required />
      ${problemAt(view, 'digest')}
      <button type="submit" class="primary">${t(texts.digestSave)}</button>
    </form>
    ${
      digest
        ? html`<form method="post" action="${groupPath(view.spaceKey, '/digest/off')}" id="digest-off">
            ${csrfField(view.csrfToken)}<button type="submit">${t(texts.digestOff)}</button>
          </form>`
        : ''
    }`;
}

/** The days a kept log is kept (the log itself is turned on in the group). */
function daysForm(view: CatchUpView, typed: string | undefined): Html {
  const t = (text: Localized) => pick(text, view.language);
  const max = spaceSettingsLimits.catchUpDays;
  const { catchUpDays } = view;
  return html`<form method="post" action="${groupPath(view.spaceKey, '/catch-up')}" id="catch-up-on">
    ${csrfField(view.csrfToken)}
    <label for="catch-up-days">${say(texts.days, view.language, { max })}</label>
    <input type="number" id="catch-up-days" name="days" min="1" max="${max}" inputmode="numeric" value="${typed ?? catchUpDays ?? view.defaultDays}" required />
    ${problemAt(view, 'catch-up')}
    <button type="submit" class="primary">${t(texts.turnOn)}</button>
  </form>`;
}

export function catchUpSection(view: CatchUpView): Html {
  const { language, catchUpDays } = view;
  const t = (text: Localized) => pick(text, language);
  const typed = view.problem?.form === 'catch-up' ? view.problem.typed : undefined;
  const state =
    catchUpDays === undefined
      ? html`<p id="catch-up-state" data-state="off">${t(texts.off)}</p>`
      : html`<p id="catch-up-state" data-state="on" data-days="${catchUpDays}">
          ${say(texts.on, language, { days: catchUpDays, count: view.count })}
          ${view.oldest === undefined ? '' : html`<br /><span class="muted">${say(texts.oldest, language, { when: describeWhen(new Date(view.oldest), undefined, language, view.timeZone) })}</span>`}
        </p>`;
  return html`<section id="catch-up">
    <h2>${t(texts.heading)}</h2>
    ${state}
    ${
      catchUpDays === undefined
        ? html`<p class="muted" id="catch-up-in-group">${t(texts.onInTheGroup)}</p>
            ${problemAt(view, 'catch-up')}`
        : daysForm(view, typed)
    }
    ${
      catchUpDays === undefined
        ? ''
        : confirmedForm({
            action: groupPath(view.spaceKey, '/catch-up/off'),
            id: 'catch-up-off',
            confirm: t(texts.confirmOff),
            label: t(texts.turnOff),
            csrfToken: view.csrfToken,
          })
    }
    <h3>${t(texts.digest)}</h3>
    ${digestForms(view)}
  </section>`;
}
