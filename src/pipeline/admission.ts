import type { ParsedCommand } from '../commands/command.js';
import { parseCommand } from '../commands/parse.js';
import type { InboundMessage, UnreadableKind } from '../shared/types.js';
import { callsByName } from './name-call.js';

export type IgnoreReason = 'group-not-addressed' | 'duplicate' | 'empty' | 'file-only' | 'command-for-another-bot' | 'unknown-command';

/**
 * How a message reached the bot: a direct chat, its mention, a reply to one of its messages, or — where the space's
 * /settings trigger allows it — its name as a word of the message, or any message at all.
 */
export type AddressedReason = 'direct' | 'mention' | 'reply-to-bot' | 'name' | 'every-message';

/**
 * How an unaddressed group message may still call the bot (a space's /settings trigger, already narrowed to this
 * conversation by the router). Absent: a mention or a reply only.
 */
export type GroupTrigger = { mode: 'name'; names: readonly string[] } | { mode: 'every-message' };

/**
 * Admission as a value: answer it, run a command, or ignore it with a reason (the reason is logged and counted, so
 * a silent bot can be explained). See docs/architecture.md, "Data flow of one message". `unreadable`: a voice note,
 * sticker… with no words, sent to the bot: it is told what the bot can read instead (`unreadable-notice.ts`).
 */
export type Admission =
  | { kind: 'dispatch'; reason: AddressedReason }
  | { kind: 'unreadable'; reason: AddressedReason; what: UnreadableKind }
  | { kind: 'command'; reason: 'command'; command: ParsedCommand }
  | { kind: 'ignore'; reason: IgnoreReason };

export interface AdmissionOptions {
  /** The bot's username on the message's platform (from its adapter), for `/cmd@username`. */
  botUsername?: string;
  knownCommands: ReadonlySet<string>;
  trigger?: GroupTrigger;
}

export function admit(message: InboundMessage, options: AdmissionOptions): Admission {
  const parsed = parseCommand(message.text, options.botUsername);
  if (parsed.kind === 'other-bot') return { kind: 'ignore', reason: 'command-for-another-bot' };
  if (parsed.kind === 'command') {
    // In a group, an unknown bare `/cmd` is probably another bot's; answer it only when we were addressed (by a
    // mention or a reply: a group's trigger is for questions, and "/weather แสง" is still another bot's).
    if (!options.knownCommands.has(parsed.command.name) && !addressedReason(message)) return { kind: 'ignore', reason: 'unknown-command' };
    return { kind: 'command', reason: 'command', command: parsed.command };
  }
  const wordless = message.text.trim() === '';
  const addressedAs = addressedReason(message) ?? triggeredReason(message, wordless, options.trigger);
  const addressed = addressedAs !== undefined;
  // With a caption the caption is the question; without one there is nothing to answer but what the bot can read.
  if (message.unreadable && wordless && message.attachments.length === 0 && addressedAs) {
    return { kind: 'unreadable', reason: addressedAs, what: message.unreadable };
  }
  // A bare "@bot" is addressed (the photo sent just before may be its question); nothing at all, unaddressed, is not.
  if (wordless && message.attachments.length === 0 && !addressed) return { kind: 'ignore', reason: 'empty' };
  // Files with no words are not a question (the model reads images, not documents): kept for `/kb add` or the next
  // question, as LINE sends every file as a message of its own.
  if (wordless && message.attachments.length > 0 && message.attachments.every((attachment) => attachment.kind === 'file')) {
    return { kind: 'ignore', reason: 'file-only' };
  }
  return addressedAs ? { kind: 'dispatch', reason: addressedAs } : { kind: 'ignore', reason: 'group-not-addressed' };
}

function addressedReason(message: InboundMessage): AddressedReason | undefined {
  if (message.chatKind === 'direct') return 'direct';
  if (message.mentionsBot) return 'mention';
  if (message.repliesToBot) return 'reply-to-bot';
  return undefined;
}

/** A group's trigger: its name as a word of the text, or every message that has something to answer or say. */
function triggeredReason(message: InboundMessage, wordless: boolean, trigger: GroupTrigger | undefined): AddressedReason | undefined {
  if (!trigger || message.chatKind === 'direct') return undefined;
  if (trigger.mode === 'name') return callsByName(message.text, trigger.names) ? 'name' : undefined;
  // Nothing at all stays 'empty'; files alone stay 'file-only' (below); a voice note is for the bot here, so it is
  // told what it can read, as in a direct chat. A sticker in a group is a reaction to the chat, not a question.
  const nothingToSay = !message.unreadable || message.unreadable === 'sticker';
  return wordless && message.attachments.length === 0 && nothingToSay ? undefined : 'every-message';
}
