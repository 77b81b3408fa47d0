import type { KnowledgeStore } from '../../knowledge/index.js';
import type { CommandContext } from '../command.js';
import type { DeleteConfirmations } from './delete-confirmations.js';

export interface KnowledgeCommandDependencies {
  store: KnowledgeStore;
  maxAttachmentBytes: number;
  confirmations: DeleteConfirmations;
}

export interface SubcommandInput {
  /** Words after the subcommand name. */
  words: string[];
  /** Raw text after the subcommand name (newlines kept). */
  rest: string;
}

/** One `/kb <subcommand>`; the caller is already known to be a global or space admin. */
export type Subcommand = (input: SubcommandInput, context: CommandContext, dependencies: KnowledgeCommandDependencies) => Promise<string>;
