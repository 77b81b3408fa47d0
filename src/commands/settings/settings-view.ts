import { say, type Localized } from '../../shared/i18n.js';
import { escapeMarkdown } from '../../shared/markdown.js';
import type { ChatKind, Language, Platform } from '../../shared/types.js';
import type { SpaceSettings } from '../../settings/space-settings.js';

// What a space's settings are, line by line, in the reader's language: /settings shows them, /status lists them.
// Each line says whether the value is the space's own choice or the bot-wide default.

/** The bot-wide values an unset field falls back to (the configuration). */
export interface SettingsDefaults {
  language: Language;
  /** The words that call the bot under the name trigger when a space named none. */
  names: readonly string[];
  groupContext: number;
  quotaPerMinute: number;
  /** Whether STREAM_PLATFORMS includes the platform. */
  streams(platform: Platform): boolean;
}

export interface SettingsPlace {
  platform: Platform;
  chatKind: ChatKind;
  conversationKey: string;
}

const texts = {
  heading: { th: 'การตั้งค่าของ{where}', en: 'Settings of {where}' },
  group: { th: 'กลุ่มนี้', en: 'this group' },
  direct: { th: 'แชตส่วนตัวนี้', en: 'this private chat' },
  language: { th: '- ภาษา: {value}', en: '- Language: {value}' },
  trigger: { th: '- การเรียกบอทในกลุ่ม: {value}', en: '- How the bot is called in the group: {value}' },
  context: { th: '- ข้อความล่าสุดในกลุ่มที่ส่งไปกับคำถาม: {value}', en: '- Recent group messages sent with a question: {value}' },
  quota: { th: '- โควตาต่อผู้ใช้: {value}', en: '- Quota per user: {value}' },
  perMinute: { th: '{count} ข้อความต่อนาที', en: '{count} messages a minute' },
  streaming: { th: '- แสดงคำตอบระหว่างเขียน: {value}', en: '- Show answers while they are written: {value}' },
  quotes: { th: '- อ่านข้อความที่ผู้ถามตอบกลับ (อ้างอิง): {value}', en: '- Read the message a question replies to: {value}' },
  instructions: { th: '- คำแนะนำเพิ่มเติมสำหรับบอท: {value}', en: '- Extra instructions for the bot: {value}' },
  instructionsHidden: { th: 'มี ({length} ตัวอักษร ผู้ดูแลดูได้ด้วย /settings)', en: 'set ({length} characters; admins see them with /settings)' },
  none: { th: 'ไม่มี', en: 'none' },
  byDefault: { th: '{value} (ค่าเริ่มต้น)', en: '{value} (default)' },
  on: { th: 'เปิด', en: 'on' },
  off: { th: 'ปิด', en: 'off' },
  th: { th: 'ไทย', en: 'Thai' },
  en: { th: 'อังกฤษ', en: 'English' },
  follow: { th: 'ตามภาษาของผู้ถามแต่ละคน', en: "each asker's own language" },
  mention: { th: 'แท็กหรือตอบกลับข้อความของบอท', en: "a mention or a reply to the bot's message" },
  name: { th: 'แท็ก ตอบกลับ หรือเรียกชื่อ ({names})', en: 'a mention, a reply, or its name ({names})' },
  everyMessageHere: { th: 'ตอบทุกข้อความในห้องนี้', en: 'every message in this channel' },
  everyMessageThere: {
    th: 'ตอบทุกข้อความในห้อง {conversation} (ห้องอื่น: แท็กหรือตอบกลับ)',
    en: 'every message in {conversation} (elsewhere: a mention or a reply)',
  },
  messages: { th: '{count} ข้อความ', en: '{count} messages' },
  catchUp: { th: '- เก็บข้อความไว้สรุป (/summary): {value}', en: '- Messages kept for /summary: {value}' },
  catchUpOn: { th: '{days} วัน', en: '{days} days' },
  catchUpOff: { th: 'ไม่เก็บ (ผู้ดูแลเปิดได้ด้วย /summary on)', en: 'not kept (admins turn it on with /summary on)' },
  updated: { th: 'แก้ไขล่าสุดโดย {who} เมื่อ {when}', en: 'Last changed by {who} on {when}' },
} satisfies Record<string, Localized>;

function chosen(value: string | undefined, fallback: string, language: Language): string {
  return value ?? say(texts.byDefault, language, { value: fallback });
}

function triggerText(settings: SpaceSettings, defaults: SettingsDefaults, place: SettingsPlace, language: Language): string | undefined {
  switch (settings.trigger) {
    case undefined:
      return undefined;
    case 'mention':
      return say(texts.mention, language);
    case 'name':
      return say(texts.name, language, { names: escapeMarkdown((settings.names ?? defaults.names).join(', ')) });
    case 'every-message':
      return settings.triggerConversation === place.conversationKey || !settings.triggerConversation
        ? say(texts.everyMessageHere, language)
        : say(texts.everyMessageThere, language, { conversation: `\`${settings.triggerConversation}\`` });
  }
}

/**
 * The lines of /settings and /status. `showInstructions`: the text itself (admins), else only that there are some.
 * The trigger and group lines only in a group, where they mean something.
 */
export function settingsLines(
  settings: SpaceSettings,
  defaults: SettingsDefaults,
  place: SettingsPlace,
  options: { language: Language; showInstructions: boolean },
): string[] {
  const { language } = options;
  const onOff = (value: boolean | undefined, fallback: boolean) =>
    chosen(value === undefined ? undefined : say(value ? texts.on : texts.off, language), say(fallback ? texts.on : texts.off, language), language);
  const lines = [
    say(texts.language, language, {
      value: chosen(settings.language && say(texts[settings.language], language), say(texts[defaults.language], language), language),
    }),
  ];
  if (place.chatKind === 'group') {
    lines.push(
      say(texts.trigger, language, { value: chosen(triggerText(settings, defaults, place, language), say(texts.mention, language), language) }),
      say(texts.context, language, {
        value: chosen(
          settings.groupContext === undefined ? undefined : say(texts.messages, language, { count: settings.groupContext }),
          say(texts.messages, language, { count: defaults.groupContext }),
          language,
        ),
      }),
      say(texts.catchUp, language, {
        value: settings.catchUpDays === undefined ? say(texts.catchUpOff, language) : say(texts.catchUpOn, language, { days: settings.catchUpDays }),
      }),
    );
  }
  lines.push(
    say(texts.quota, language, {
      value: chosen(
        settings.quotaPerMinute === undefined ? undefined : say(texts.perMinute, language, { count: settings.quotaPerMinute }),
        say(texts.perMinute, language, { count: defaults.quotaPerMinute }),
        language,
      ),
    }),
    say(texts.streaming, language, { value: onOff(settings.streaming, defaults.streams(place.platform)) }),
    say(texts.quotes, language, { value: onOff(settings.quotes, true) }),
  );
  const instructions = settings.instructions;
  const instructionsValue =
    instructions === undefined
      ? say(texts.none, language)
      : options.showInstructions
        ? `“${escapeMarkdown(instructions.replace(/\n+/g, ' / '))}”`
        : say(texts.instructionsHidden, language, { length: instructions.length });
  lines.push(say(texts.instructions, language, { value: instructionsValue }));
  return lines;
}

export function settingsHeading(place: SettingsPlace, language: Language): string {
  return say(texts.heading, language, { where: say(place.chatKind === 'group' ? texts.group : texts.direct, language) });
}

export function updatedLine(settings: SpaceSettings, language: Language, when: (iso: string) => string): string | undefined {
  if (!settings.updatedBy || !settings.updatedAt) return undefined;
  return say(texts.updated, language, { who: `\`${settings.updatedBy}\``, when: when(settings.updatedAt) });
}
