import type { Localized } from '../../shared/i18n.js';
import { neutralizeSourceMarkers } from '../../shared/source-markers.js';
import { thaiDigitsToAscii } from '../../shared/thai-digits.js';
import { spaceSettingsLimits, type SpaceSettings } from '../../settings/space-settings.js';
import { textAfterWords } from '../kb/arguments.js';
import type { ParsedCommand } from '../command.js';

// `/settings <topic> <value>` as typed (a Discord slash command is turned into the same words): topic and value words
// in English or Thai, Thai digits read as digits. Parsing only: who may change what is settings.ts's.

export type SettingsTopic = 'instructions' | 'language' | 'trigger' | 'context' | 'quota' | 'streaming' | 'quotes';

/** A change to the stored settings: a field set, or `null` to go back to the bot-wide default. */
export type SettingsPatch = { [Field in keyof SpaceSettings]?: SpaceSettings[Field] | null };

export type SettingsRequest =
  | { kind: 'show' }
  | { kind: 'help' }
  | { kind: 'reset' }
  | { kind: 'change'; topic: SettingsTopic; patch: SettingsPatch }
  | { kind: 'invalid'; topic?: SettingsTopic; problem: Localized; values?: Record<string, string | number> };

const topicWords: Record<string, SettingsTopic | 'show' | 'help' | 'reset'> = {
  show: 'show',
  แสดง: 'show',
  help: 'help',
  reset: 'reset',
  instructions: 'instructions',
  persona: 'instructions',
  คำแนะนำ: 'instructions',
  language: 'language',
  ภาษา: 'language',
  trigger: 'trigger',
  การเรียก: 'trigger',
  context: 'context',
  บริบท: 'context',
  quota: 'quota',
  โควตา: 'quota',
  streaming: 'streaming',
  stream: 'streaming',
  สตรีม: 'streaming',
  quotes: 'quotes',
  quoted: 'quotes',
  อ้างอิง: 'quotes',
};
const defaultWords = new Set(['default', 'ค่าเริ่มต้น', 'clear', 'ล้าง']);
const onWords = new Set(['on', 'เปิด', 'yes']);
const offWords = new Set(['off', 'ปิด', 'no']);
const languageWords: Record<string, 'th' | 'en' | 'follow'> = {
  th: 'th',
  thai: 'th',
  ไทย: 'th',
  en: 'en',
  english: 'en',
  อังกฤษ: 'en',
  follow: 'follow',
  auto: 'follow',
  ตามผู้ถาม: 'follow',
  ตาม: 'follow',
};
const triggerWords: Record<string, 'mention' | 'name' | 'every-message'> = {
  mention: 'mention',
  แท็ก: 'mention',
  name: 'name',
  ชื่อ: 'name',
  'every-message': 'every-message',
  all: 'every-message',
  ทุกข้อความ: 'every-message',
};

export const problems = {
  unknownTopic: { th: 'ไม่รู้จักหัวข้อ “{word}”', en: 'Unknown setting “{word}”.' },
  missingValue: { th: 'ต้องระบุค่าด้วย', en: 'A value is needed.' },
  onOff: { th: 'ใช้ได้เฉพาะ on, off หรือ default', en: 'Use on, off or default.' },
  language: { th: 'ใช้ได้เฉพาะ th, en, follow หรือ default', en: 'Use th, en, follow or default.' },
  trigger: { th: 'ใช้ได้เฉพาะ mention, name, every-message หรือ default', en: 'Use mention, name, every-message or default.' },
  number: { th: 'ต้องเป็นตัวเลข {min}–{max} หรือ default', en: 'Use a number from {min} to {max}, or default.' },
  instructionsLong: {
    th: 'คำแนะนำยาวเกินไป ({length} ตัวอักษร รับได้สูงสุด {limit} ตัวอักษร ไม่เกิน {lines} บรรทัด)',
    en: 'The instructions are too long ({length} characters; at most {limit} characters on {lines} lines).',
  },
  names: {
    th: 'ชื่อเรียกใช้ได้ไม่เกิน {count} ชื่อ ชื่อละไม่เกิน {chars} ตัวอักษร และไม่มีช่องว่างในชื่อ',
    en: 'At most {count} names of at most {chars} characters each, with no spaces in a name.',
  },
} satisfies Record<string, Localized>;

function numberValue(topic: 'context' | 'quota', word: string | undefined): SettingsRequest {
  const [min, max] = topic === 'context' ? [0, spaceSettingsLimits.groupContext] : [1, spaceSettingsLimits.quotaPerMinute];
  const field = topic === 'context' ? 'groupContext' : 'quotaPerMinute';
  if (word !== undefined && defaultWords.has(word)) return { kind: 'change', topic, patch: { [field]: null } };
  const digits = thaiDigitsToAscii(word ?? '');
  const value = /^\d{1,4}$/.test(digits) ? Number(digits) : Number.NaN;
  if (!(value >= min && value <= max)) return { kind: 'invalid', topic, problem: problems.number, values: { min, max } };
  return { kind: 'change', topic, patch: { [field]: value } };
}

function switchValue(topic: 'streaming' | 'quotes', word: string | undefined): SettingsRequest {
  if (word !== undefined && defaultWords.has(word)) return { kind: 'change', topic, patch: { [topic]: null } };
  if (word !== undefined && (onWords.has(word) || offWords.has(word))) return { kind: 'change', topic, patch: { [topic]: onWords.has(word) } };
  return { kind: 'invalid', topic, problem: problems.onOff };
}

/** Instructions as they will be stored (source markers neutralized first, so the length checked is the stored one). */
function instructionsValue(typed: string): SettingsRequest {
  const topic = 'instructions';
  const text = neutralizeSourceMarkers(typed);
  if (text === '') return { kind: 'invalid', topic, problem: problems.missingValue };
  if (defaultWords.has(text.toLowerCase())) return { kind: 'change', topic, patch: { instructions: null } };
  const { instructionsChars: limit, instructionsLines: lines } = spaceSettingsLimits;
  if (text.length > limit || text.split('\n').length > lines) {
    return { kind: 'invalid', topic, problem: problems.instructionsLong, values: { length: text.length, limit, lines } };
  }
  return { kind: 'change', topic, patch: { instructions: text } };
}

const commas = new Set([',', '،', '、']);

/** "แสง," typed in a list of names: the commas at either end are not part of the name (no regex: linear by hand). */
function withoutEdgeCommas(name: string): string {
  let start = 0;
  let end = name.length;
  while (start < end && commas.has(name.charAt(start))) start++;
  while (end > start && commas.has(name.charAt(end - 1))) end--;
  return name.slice(start, end);
}

function triggerValue(words: readonly string[]): SettingsRequest {
  const topic = 'trigger';
  const [word, ...names] = words;
  if (word !== undefined && defaultWords.has(word)) return { kind: 'change', topic, patch: { trigger: null, names: null } };
  const mode = word === undefined ? undefined : triggerWords[word];
  if (!mode) return { kind: 'invalid', topic, problem: problems.trigger };
  if (mode !== 'name') return { kind: 'change', topic, patch: { trigger: mode, names: null } };
  const { names: count, nameChars: chars } = spaceSettingsLimits;
  const cleaned = names.map((name) => withoutEdgeCommas(name.normalize('NFC').toLowerCase()));
  if (cleaned.length > count || cleaned.some((name) => name === '' || name.length > chars || /\s/.test(name))) {
    return { kind: 'invalid', topic, problem: problems.names, values: { count, chars } };
  }
  return { kind: 'change', topic, patch: { trigger: 'name', names: cleaned.length > 0 ? cleaned : null } };
}

export function parseSettingsRequest(command: ParsedCommand): SettingsRequest {
  const [first, second, ...more] = command.words.map((word) => word.toLowerCase());
  if (first === undefined) return { kind: 'show' };
  const topic = topicWords[first];
  if (!topic) return { kind: 'invalid', problem: problems.unknownTopic, values: { word: command.words[0] ?? '' } };
  switch (topic) {
    case 'show':
    case 'help':
    case 'reset':
      return { kind: topic };
    case 'instructions':
      return instructionsValue(textAfterWords(command.rest, 1));
    case 'language': {
      if (second !== undefined && defaultWords.has(second)) return { kind: 'change', topic, patch: { language: null } };
      const language = second === undefined ? undefined : languageWords[second];
      return language ? { kind: 'change', topic, patch: { language } } : { kind: 'invalid', topic, problem: problems.language };
    }
    case 'trigger':
      return triggerValue(second === undefined ? [] : [second, ...more]);
    case 'context':
    case 'quota':
      return numberValue(topic, second);
    case 'streaming':
    case 'quotes':
      return switchValue(topic, second);
  }
}
