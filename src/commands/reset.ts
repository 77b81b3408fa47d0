import { commandEntry } from '../shared/command-table.js';
import { pick } from '../shared/i18n.js';
import type { CommandHandler } from './command.js';

/** `/reset`: forget this conversation's history (nothing else). */
export function createResetCommand(clearHistory: (conversationKey: string) => Promise<void>): CommandHandler {
  return {
    name: 'reset',
    summary: commandEntry('reset').summary,
    run: async (_command, context) => {
      await clearHistory(context.message.conversationKey);
      return { text: pick({ th: 'ล้างประวัติการสนทนาในห้องนี้แล้ว', en: "This conversation's history is cleared." }, context.language) };
    },
  };
}
