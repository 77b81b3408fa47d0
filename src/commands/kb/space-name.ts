import { pick, type Localized } from '../../shared/i18n.js';
import type { CommandContext } from '../command.js';

// A space is a group, a Discord server, a direct chat or the console: the KB replies name the one the user is in,
// not always "this group".
const spaceNames = {
  group: { th: 'กลุ่มนี้', en: 'this group' },
  direct: { th: 'แชตนี้', en: 'this chat' },
  console: { th: 'คอนโซลนี้', en: 'this console' },
} satisfies Record<string, Localized>;

/** "กลุ่มนี้" / "แชตนี้" / "คอนโซลนี้" (English lower case, for the middle of a sentence). */
export function thisSpace(context: CommandContext): string {
  const { platform, chatKind } = context.message;
  return pick(platform === 'console' ? spaceNames.console : spaceNames[chatKind], context.language);
}

/** The same, capitalized where English starts a sentence with it. */
export function thisSpaceAtStart(context: CommandContext): string {
  const name = thisSpace(context);
  return context.language === 'en' ? `${name.charAt(0).toUpperCase()}${name.slice(1)}` : name;
}
