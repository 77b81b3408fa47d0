import type { Localized } from '../shared/i18n.js';
import type { Logger } from '../shared/log.js';
import type { Attachment, InboundMessage, Language, OutboundFile, ProgressEvent } from '../shared/types.js';

/** A parsed `/name@bot args…` message. */
export interface ParsedCommand {
  /** Lower-cased command name without slash or @botname, e.g. "kb". */
  name: string;
  /** Everything after the command word, trimmed (newlines kept). */
  rest: string;
  /** `rest` split on whitespace; quoted "multi word" arguments stay together. */
  words: string[];
}

export interface CommandContext {
  message: InboundMessage;
  language: Language;
  /** True when ADMIN_IDS lists `platform:senderId`. */
  isGlobalAdmin: boolean;
  log: Logger;
  now(): Date;
  /** Progress for long commands such as /research (already localized). */
  progress(event: ProgressEvent): void;
  /** An attachment's bytes through the adapter that received the message, capped at MAX_ATTACHMENT_BYTES. */
  download(attachment: Attachment): Promise<Uint8Array>;
}

export interface CommandResult {
  text: string;
  files?: OutboundFile[];
}

export interface CommandHandler {
  name: string;
  /** One line for /help. */
  summary: Localized;
  /** Calls the model (e.g. /research): counts against the per-user quota like a question does. */
  usesModel?: boolean;
  run(command: ParsedCommand, context: CommandContext): Promise<CommandResult>;
}
