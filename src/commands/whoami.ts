import { commandEntry } from '../shared/command-table.js';
import { pick, say, type Localized } from '../shared/i18n.js';
import { escapeMarkdown } from '../shared/markdown.js';
import type { Platform } from '../shared/types.js';
import { adminIdOf } from './admin-id.js';
import type { CommandHandler } from './command.js';
import { platformNames } from './platform-names.js';

// `/whoami`: how to become an admin starts with one's own id, which no platform shows plainly (a Telegram user id,
// a Discord snowflake, a LINE U… id). Answered to anyone: the id in the exact form ADMIN_IDS takes, the platform,
// this chat's keys, and whether the sender is an admin here (ADMIN_IDS, and the platform's group admin where the
// platform has one: LINE has none).

const texts = {
  heading: { th: 'ข้อมูลของคุณ {name}', en: 'About you, {name}' },
  id: { th: '- รหัสของคุณ (ใส่ใน ADMIN_IDS ได้ตามนี้): `{id}`', en: '- Your id (as ADMIN_IDS takes it): `{id}`' },
  platform: { th: '- แพลตฟอร์ม: {platform}', en: '- Platform: {platform}' },
  conversation: { th: '- ห้องสนทนานี้: `{key}`', en: '- This conversation: `{key}`' },
  space: { th: '- กลุ่ม/เซิร์ฟเวอร์: `{key}`', en: '- Group/server: `{key}`' },
  botAdmin: { th: '- ผู้ดูแลระบบของบอท (ADMIN_IDS): {answer}', en: '- Bot admin (ADMIN_IDS): {answer}' },
  groupAdmin: { th: '- ผู้ดูแลกลุ่มนี้: {answer}', en: '- Admin of this group: {answer}' },
  yes: { th: 'ใช่', en: 'yes' },
  no: { th: 'ไม่ใช่', en: 'no' },
  howTo: {
    th: 'วิธีเป็นผู้ดูแลระบบ: เพิ่ม {id} ลงใน ADMIN_IDS ในไฟล์ .env (คั่นหลายคนด้วยจุลภาค) แล้วเริ่มบอทใหม่',
    en: 'To become a bot admin: add {id} to ADMIN_IDS in the .env file (several separated by commas) and restart the bot.',
  },
} satisfies Record<string, Localized>;

/** Whether the platform has group admins the bot can see (LINE tells a bot nothing of the kind). */
const hasGroupAdmins: Record<Platform, boolean> = { telegram: true, discord: true, line: false, console: false };

export function createWhoamiCommand(): CommandHandler {
  return {
    name: 'whoami',
    summary: commandEntry('whoami').summary,
    run: (_command, context) => {
      const { message, language } = context;
      const id = adminIdOf(message);
      const yesNo = (value: boolean): string => pick(value ? texts.yes : texts.no, language);
      const lines = [
        say(texts.heading, language, { name: escapeMarkdown(message.sender.name) }),
        say(texts.id, language, { id }),
        say(texts.platform, language, { platform: pick(platformNames[message.platform], language) }),
        say(texts.conversation, language, { key: message.conversationKey }),
        ...(message.chatKind === 'group' && message.spaceKey !== message.conversationKey ? [say(texts.space, language, { key: message.spaceKey })] : []),
        say(texts.botAdmin, language, { answer: yesNo(context.isGlobalAdmin) }),
        ...(hasGroupAdmins[message.platform] && message.chatKind === 'group'
          ? [say(texts.groupAdmin, language, { answer: yesNo(message.sender.isPlatformAdmin) })]
          : []),
        ...(context.isGlobalAdmin ? [] : ['', say(texts.howTo, language, { id })]),
      ];
      return Promise.resolve({ text: lines.join('\n') });
    },
  };
}
