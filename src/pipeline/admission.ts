import type { ParsedCommand } from '../commands/command.js';
import { parseCommand } from '../commands/parse.js';
import type { InboundMessage } from '../shared/types.js';

export type IgnoreReason = 'group-not-addressed' | 'duplicate' | 'empty' | 'file-only' | 'command-for-another-bot' | 'unknown-command';

/**
 * Admission as a value: answer it, run a command, or ignore it with a reason (the reason is logged and counted, so
 * a silent bot can be explained). See docs/architecture.md, "Data flow of one message".
 */
export type Admission =
  | { kind: 'dispatch'; reason: 'direct' | 'mention' | 'reply-to-bot' }
  | { kind: 'command'; reason: 'command'; command: ParsedCommand }
  | { kind: 'ignore'; reason: IgnoreReason };

export interface AdmissionOptions {
  /** The bot's username on the message's platform (from its adapter), for `/cmd@username`. */
  botUsername?: string;
  knownCommands: ReadonlySet<string>;
}

export function admit(message: InboundMessage, options: AdmissionOptions): Admission {
  const addressed = message.chatKind === 'direct' || message.mentionsBot || message.repliesToBot;
  const parsed = parseCommand(message.text, options.botUsername);
  if (parsed.kind === 'other-bot') return { kind: 'ignore', reason: 'command-for-another-bot' };
  if (parsed.kind === 'command') {
    // In a group, an unknown bare `/cmd` is probably another bot's; answer it only when we were addressed.
    if (!options.knownCommands.has(parsed.command.name) && !addressed) return { kind: 'ignore', reason: 'unknown-command' };
    return { kind: 'command', reason: 'command', command: parsed.command };
  }
  // A bare "@bot" is addressed (the photo sent just before may be its question); nothing at all, unaddressed, is not.
  const wordless = message.text.trim() === '';
  if (wordless && message.attachments.length === 0 && !addressed) return { kind: 'ignore', reason: 'empty' };
  // Files with no words are not a question (the model reads images, not documents): kept for `/kb add` or the next
  // question, as LINE sends every file as a message of its own.
  if (wordless && message.attachments.length > 0 && message.attachments.every((attachment) => attachment.kind === 'file')) {
    return { kind: 'ignore', reason: 'file-only' };
  }
  if (message.chatKind === 'direct') return { kind: 'dispatch', reason: 'direct' };
  if (message.mentionsBot) return { kind: 'dispatch', reason: 'mention' };
  if (message.repliesToBot) return { kind: 'dispatch', reason: 'reply-to-bot' };
  return { kind: 'ignore', reason: 'group-not-addressed' };
}
