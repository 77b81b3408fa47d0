import { commandEntry } from '../shared/command-table.js';
import { pick, say, type Localized } from '../shared/i18n.js';
import type { Keyv } from 'keyv';
import type { KnowledgeStore } from '../knowledge/index.js';
import type { CommandHandler } from './command.js';
import { accessOf, refusal } from './kb/access.js';
import { addDocuments } from './kb/add.js';
import { textAfterWords } from './kb/arguments.js';
import { bindKnowledgeBase, unbindKnowledgeBase } from './kb/binding.js';
import { createKnowledgeBase } from './kb/create.js';
import { deleteKnowledgeBase } from './kb/delete.js';
import { DeleteConfirmations } from './kb/delete-confirmations.js';
import { listDocuments, removeDocument } from './kb/documents.js';
import { knowledgeHelp } from './kb/help.js';
import { describeKnowledgeBase } from './kb/info.js';
import { listKnowledgeBases } from './kb/list.js';
import { escapeMarkdown } from '../shared/markdown.js';
import { searchKnowledgeBase } from './kb/search.js';
import type { KnowledgeCommandDependencies, Subcommand } from './kb/subcommand.js';

const subcommands = new Map<string, Subcommand>(
  Object.entries({
    list: listKnowledgeBases,
    create: createKnowledgeBase,
    add: addDocuments,
    docs: listDocuments,
    'remove-doc': removeDocument,
    search: searchKnowledgeBase,
    bind: bindKnowledgeBase,
    unbind: unbindKnowledgeBase,
    info: describeKnowledgeBase,
    delete: deleteKnowledgeBase,
  }),
);

const unknownSubcommand: Localized = { th: 'ไม่รู้จักคำสั่งย่อย “{name}”', en: 'Unknown subcommand “{name}”.' };

/**
 * `/kb …`: knowledge-base administration; every subcommand checks the caller first. `confirmationStore`: where
 * `/kb delete` keeps its pending codes (the app's shared cache store), so any process or a restart can confirm.
 */
export function createKnowledgeCommand(store: KnowledgeStore, options: { maxAttachmentBytes: number; confirmationStore?: Keyv }): CommandHandler {
  const dependencies: KnowledgeCommandDependencies = {
    store,
    maxAttachmentBytes: options.maxAttachmentBytes,
    confirmations: new DeleteConfirmations(options.confirmationStore),
  };
  return {
    name: 'kb',
    summary: commandEntry('kb').summary,
    async run(command, context) {
      if (accessOf(context) === 'none') return { text: refusal(context) };
      const [name = '', ...words] = command.words;
      const subcommandName = name.toLowerCase();
      if (!subcommandName || subcommandName === 'help') return { text: pick(knowledgeHelp, context.language) };
      const subcommand = subcommands.get(subcommandName);
      if (!subcommand) {
        return { text: `${say(unknownSubcommand, context.language, { name: escapeMarkdown(name) })}\n\n${pick(knowledgeHelp, context.language)}` };
      }
      const text = await subcommand({ words, rest: textAfterWords(command.rest, 1) }, context, dependencies);
      return { text };
    },
  };
}
