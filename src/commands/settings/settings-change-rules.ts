import { say, type Localized } from '../../shared/i18n.js';
import type { Language } from '../../shared/types.js';
import type { SpaceSettings } from '../../settings/space-settings.js';
import type { SettingsPatch, SettingsRequest } from './settings-request.js';

// What a change of a space's settings must pass wherever it is made — `/settings` in the chat and the groups page of
// the admin web page — and how it is applied: one set of rules and words for both.

export const settingsChangeTexts = {
  quotaRaise: {
    th: 'ผู้ดูแลกลุ่มลดโควตาได้ไม่เกิน {limit} ข้อความต่อนาที (ค่าของบอท) การเพิ่มเกินนั้นต้องให้ผู้ดูแลระบบของบอทตั้ง',
    en: "Group admins can set the quota up to {limit} a minute (the bot's own); only a bot admin can raise it further.",
  },
  credential: {
    th: 'ไม่ได้บันทึก: คำแนะนำนี้มีข้อความที่ดูเหมือนรหัสลับหรือโทเค็น ({kinds}) ห้ามใส่ข้อมูลลับในคำแนะนำของบอท',
    en: 'Not saved: the instructions hold something that looks like a secret or token ({kinds}). Never put secrets in the instructions.',
  },
  changed: { th: 'บันทึกแล้ว', en: 'Saved.' },
} satisfies Record<string, Localized>;

export type SettingsChange = Extract<SettingsRequest, { kind: 'change' }>;

export interface ChangeRules {
  /** The bot-wide per-user quota: a group admin may set up to it; a bot admin (`mayRaiseQuota`) above. */
  quotaLimit: number;
  mayRaiseQuota: boolean;
  /** The outbound DLP's scanner: instructions carrying a credential are not stored. */
  credentialKinds(text: string): string[];
  language: Language;
}

/** Why the change may not be made by this caller (quota raised by a group admin, a credential in the instructions). */
export function changeRefusal(request: SettingsChange, rules: ChangeRules): string | undefined {
  const quota = request.patch.quotaPerMinute;
  if (typeof quota === 'number' && quota > rules.quotaLimit && !rules.mayRaiseQuota)
    return say(settingsChangeTexts.quotaRaise, rules.language, { limit: rules.quotaLimit });
  const instructions = request.patch.instructions;
  if (typeof instructions === 'string') {
    const kinds = rules.credentialKinds(instructions);
    if (kinds.length > 0) return say(settingsChangeTexts.credential, rules.language, { kinds: kinds.join(', ') });
  }
  return undefined;
}

/** The stored settings with `patch` applied: a null field goes back to the default. */
export function patchedSettings(current: SpaceSettings, patch: SettingsPatch, by: string, at: string): SpaceSettings {
  const next: Record<string, unknown> = { ...current };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete next[field];
    else next[field] = value;
  }
  return { ...(next as SpaceSettings), updatedBy: by, updatedAt: at };
}
