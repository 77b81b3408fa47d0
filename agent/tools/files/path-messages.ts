import { pick, type Localized } from '../../../src/shared/i18n.js';
import type { Language } from '../../../src/shared/types.js';

// What the model (and through it the user) is told when the credential-path guard refuses a path. The exact
// reason goes to the logs only.

const outside: Localized = { th: 'อยู่นอกพื้นที่ไฟล์ของแชตนี้', en: 'it is outside this chat’s file area' };
const credential: Localized = { th: 'เป็นตำแหน่งของข้อมูลลับ (รหัสผ่านหรือกุญแจ)', en: 'it is a credential location (passwords or keys)' };
const invalid: Localized = { th: 'ชื่อหรือพาธไม่ถูกต้อง', en: 'the name or path is invalid' };

export function refusedPathReason(reason: string, language: Language): string {
  if (reason.startsWith('outside')) return pick(outside, language);
  if (reason.startsWith('invalid')) return pick(invalid, language);
  return pick(credential, language);
}
