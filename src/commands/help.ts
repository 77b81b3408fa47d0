import { commandEntry } from '../shared/command-table.js';
import { pick, type Localized } from '../shared/i18n.js';
import type { CommandHandler } from './command.js';

const heading: Localized = {
  th: 'คำสั่งที่ใช้ได้ (ในกลุ่ม ให้แท็กบอทหรือตอบกลับข้อความของบอทเพื่อถามคำถาม):',
  en: 'Commands (in groups, mention the bot or reply to one of its messages to ask a question):',
};

/** `/help`: every registered command with its one-line summary. */
export function createHelpCommand(listCommands: () => readonly CommandHandler[]): CommandHandler {
  const handler: CommandHandler = {
    name: 'help',
    summary: commandEntry('help').summary,
    run: async (_command, context) => {
      const lines = listCommands().map((command) => `- /${command.name} — ${pick(command.summary, context.language)}`);
      return { text: [pick(heading, context.language), ...lines].join('\n') };
    },
  };
  return handler;
}
