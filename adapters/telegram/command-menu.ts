import type { Telegram } from 'telegraf';
import type { BotCommand } from 'telegraf/types';

// The "/" menu Telegram shows (setMyCommands): everyone's commands in every chat, and the administrators' extra
// commands (/kb) only to chat administrators — Telegram picks the narrowest scope that has a menu, so the
// administrators' menu repeats everyone's. Descriptions come already in BOT_LANGUAGE.

export interface CommandMenu {
  everyone: readonly BotCommand[];
  /** Added for chat administrators. */
  administrators: readonly BotCommand[];
}

export async function publishCommandMenu(telegram: Pick<Telegram, 'setMyCommands'>, menu: CommandMenu): Promise<void> {
  await telegram.setMyCommands(menu.everyone, { scope: { type: 'default' } });
  await telegram.setMyCommands([...menu.everyone, ...menu.administrators], { scope: { type: 'all_chat_administrators' } });
}
