import type { Message, MessageEntity, Update } from 'telegraf/types';
import type { FakeTelegramState } from './state.js';

// Which group messages a bot is sent (core.telegram.org bots/features#privacy-mode). No bot sees other bots'
// messages. In privacy mode, unless it is an admin of the group, it sees only `/cmd@thisbot`, replies to its own
// messages and service messages. (General `/cmd` "if it was the last bot to post" is not modelled: dropped.)

const contentFields = [
  'text',
  'photo',
  'document',
  'sticker',
  'video',
  'voice',
  'audio',
  'animation',
  'video_note',
  'contact',
  'location',
  'venue',
  'poll',
  'dice',
];

function groupMessageOf(update: Update): Message | undefined {
  const message = 'message' in update ? update.message : 'edited_message' in update ? update.edited_message : undefined;
  if (!message || (message.chat.type !== 'group' && message.chat.type !== 'supergroup')) return undefined;
  return message as Message;
}

function commandsAimedAt(message: Message, username: string): boolean {
  const text = 'text' in message ? message.text : 'caption' in message ? (message.caption ?? '') : '';
  const entities: MessageEntity[] = ('entities' in message ? message.entities : 'caption_entities' in message ? message.caption_entities : undefined) ?? [];
  return entities.some((entity) => {
    if (entity.type !== 'bot_command') return false;
    const command = text.slice(entity.offset, entity.offset + entity.length);
    const at = command.indexOf('@');
    return at > 0 && command.slice(at + 1).toLowerCase() === username.toLowerCase();
  });
}

export function botReceives(update: Update, state: FakeTelegramState): boolean {
  const message = groupMessageOf(update);
  if (!message) return true;
  const from = 'from' in message ? message.from : undefined;
  if (from?.is_bot && from.id !== state.bot.id) return false;
  if (!state.privacyMode) return true;
  const botStatus = state.memberStatus(message.chat.id, state.bot.id);
  if (botStatus === 'administrator' || botStatus === 'creator') return true;
  if (!contentFields.some((field) => field in message)) return true;
  const repliedTo = 'reply_to_message' in message ? message.reply_to_message : undefined;
  if (repliedTo && 'from' in repliedTo && repliedTo.from?.id === state.bot.id) return true;
  return commandsAimedAt(message, state.bot.username);
}
