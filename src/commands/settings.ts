import { commandEntry } from '../shared/command-table.js';
import { pick, say, type Localized } from '../shared/i18n.js';
import type { Platform } from '../shared/types.js';
import type { SpaceSettings } from '../settings/space-settings.js';
import type { SpaceSettingsStore } from '../settings/space-settings-store.js';
import { adminIdOf } from './admin-id.js';
import type { CommandContext, CommandHandler } from './command.js';
import { sentAtText } from '../shared/sent-at-text.js';
import { settingsHelp } from './settings/settings-help.js';
import { parseSettingsRequest, type SettingsPatch } from './settings/settings-request.js';
import { changeRefusal, patchedSettings, settingsChangeTexts, type SettingsChange } from './settings/settings-change-rules.js';
import { settingsHeading, settingsLines, updatedLine, type SettingsDefaults } from './settings/settings-view.js';

// `/settings`: how this space wants the bot (docs/architecture.md, "Space settings"). Shown and changed by the
// space's admins — the platform's own (a Telegram chat administrator, a Discord member with Manage Server), the
// owner of a private chat, and the bot admins (ADMIN_IDS) everywhere; anyone else is refused. Raising the per-user
// quota above the bot-wide one is for bot admins only: it spends the box's model time for everyone.

export interface SettingsCommandOptions {
  store: Pick<SpaceSettingsStore, 'get' | 'update'>;
  defaults: SettingsDefaults;
  /** The credential kinds in a text (the outbound DLP's scanner): instructions carrying one are not stored. */
  credentialKinds(text: string): string[];
  timeZone: string;
  /** Whether the platform shows the bot every group message (false: Telegram's privacy mode), as its adapter said. */
  readsAllGroupMessages?: (platform: Platform) => boolean | undefined;
}

const texts = {
  refused: {
    th: 'ขออภัยครับ คำสั่ง /settings ใช้ได้เฉพาะผู้ดูแลของกลุ่มนี้หรือผู้ดูแลระบบเท่านั้น',
    en: 'Sorry, /settings is only for the admins of this group or the bot admins.',
  },
  refusedOnLine: {
    th: 'ขออภัยครับ LINE ไม่แจ้งบอทว่าใครเป็นผู้ดูแลกลุ่ม คำสั่ง /settings ในกลุ่ม LINE จึงใช้ได้เฉพาะผู้ดูแลระบบของบอท (ADMIN_IDS) พิมพ์ /whoami เพื่อดูรหัสของคุณ',
    en: 'Sorry, LINE does not tell a bot who its group admins are, so /settings in a LINE group is for the bot admins (ADMIN_IDS) only. Type /whoami to see your id.',
  },
  groupOnly: {
    th: 'ตั้งค่านี้ใช้ได้เฉพาะในกลุ่ม ในแชตส่วนตัวบอทตอบทุกข้อความอยู่แล้ว',
    en: 'That setting is for groups: in a private chat the bot answers every message already.',
  },
  invalid: { th: '{problem} ดูวิธีใช้ด้วย /settings help', en: '{problem} See /settings help.' },
  resetDone: { th: 'กลับเป็นค่าเริ่มต้นทั้งหมดแล้ว', en: 'All settings are back to the defaults.' },
  blind: {
    th: 'หมายเหตุ: ตอนนี้บอทเห็นเฉพาะข้อความที่เรียกบอทในกลุ่ม การเรียกด้วยชื่อหรือตอบทุกข้อความจึงยังไม่ทำงาน (Telegram: ปิด privacy mode ที่ @BotFather แล้วเชิญบอทเข้ากลุ่มใหม่)',
    en: 'Note: the bot sees only the group messages addressed to it, so being called by name or answering every message cannot work yet (Telegram: turn privacy mode off in @BotFather, then re-add the bot).',
  },
} satisfies Record<string, Localized>;

type Access = 'global' | 'space' | 'none';

function accessOf(context: CommandContext): Access {
  if (context.isGlobalAdmin) return 'global';
  const { message } = context;
  return message.chatKind === 'direct' || message.sender.isPlatformAdmin ? 'space' : 'none';
}

/** Why this change may not be made here by this caller, or undefined when it may. */
function refusalOf(request: SettingsChange, context: CommandContext, options: SettingsCommandOptions, access: Access): string | undefined {
  const { language, message } = context;
  if ((request.topic === 'trigger' || request.topic === 'context') && message.chatKind === 'direct') return pick(texts.groupOnly, language);
  return changeRefusal(request, {
    quotaLimit: options.defaults.quotaPerMinute,
    mayRaiseQuota: access === 'global',
    credentialKinds: options.credentialKinds,
    language,
  });
}

export function createSettingsCommand(options: SettingsCommandOptions): CommandHandler {
  /** A change of language is confirmed in the new one (th/en; follow and the default keep the asker's). */
  const languageAfter = (settings: SpaceSettings, context: CommandContext) =>
    settings.language === 'th' || settings.language === 'en'
      ? settings.language
      : settings.language === 'follow'
        ? context.language
        : options.defaults.language;
  const view = (settings: SpaceSettings, context: CommandContext, lead?: Localized) => {
    const { message } = context;
    const language = lead ? languageAfter(settings, context) : context.language;
    // A trigger that needs every group message, on a platform that shows the bot only those addressed to it.
    const blind =
      message.chatKind === 'group' &&
      (settings.trigger === 'name' || settings.trigger === 'every-message') &&
      options.readsAllGroupMessages?.(message.platform) === false;
    const updated = updatedLine(settings, language, (iso) => sentAtText(new Date(iso), language, options.timeZone, context.now().getTime()));
    return [
      lead && pick(lead, language),
      settingsHeading(message, language),
      ...settingsLines(settings, options.defaults, message, { language, showInstructions: true }),
      updated,
      blind ? pick(texts.blind, language) : undefined,
    ]
      .filter((line) => line !== undefined)
      .join('\n');
  };

  return {
    name: 'settings',
    summary: commandEntry('settings').summary,
    async run(command, context) {
      const { language, message, log } = context;
      const access = accessOf(context);
      if (access === 'none') return { text: pick(message.platform === 'line' && message.chatKind === 'group' ? texts.refusedOnLine : texts.refused, language) };
      const request = parseSettingsRequest(command);
      const space = message.spaceKey;
      switch (request.kind) {
        case 'help':
          return { text: pick(settingsHelp, language) };
        case 'show':
          return { text: view(await options.store.get(space), context) };
        case 'invalid':
          return { text: say(texts.invalid, language, { problem: say(request.problem, language, request.values ?? {}) }) };
        case 'reset': {
          const by = adminIdOf(message);
          const settings = await options.store.update(space, () => ({ updatedBy: by, updatedAt: context.now().toISOString() }));
          log.info({ space, by }, 'space settings reset');
          return { text: view(settings, context, texts.resetDone) };
        }
        case 'change': {
          const refusal = refusalOf(request, context, options, access);
          if (refusal) return { text: refusal };
          const patch: SettingsPatch = { ...request.patch };
          // Every message in one conversation only: the channel or topic where it was asked for.
          if (request.topic === 'trigger') patch.triggerConversation = patch.trigger === 'every-message' ? message.conversationKey : null;
          const by = adminIdOf(message);
          const settings = await options.store.update(space, (current) => patchedSettings(current, patch, by, context.now().toISOString()));
          // Ids and the topic only: instructions are a user's text.
          log.info({ space, topic: request.topic, by }, 'space settings changed');
          return { text: view(settings, context, settingsChangeTexts.changed) };
        }
      }
    },
  };
}
