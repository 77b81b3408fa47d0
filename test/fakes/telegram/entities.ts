import type { MessageEntity } from 'telegraf/types';

// Entities as Telegram computes them for incoming text: offsets and lengths in UTF-16 code units, which are
// JavaScript string indices, so Thai text and emoji (two units each) need no conversion.

/** The `mention` entity of the first `@username` in `text` (case-insensitive, whole word), if any. */
export function mentionEntity(text: string, username: string): MessageEntity | undefined {
  const wanted = `@${username}`.toLowerCase();
  const lower = text.toLowerCase();
  for (let from = 0; ;) {
    const offset = lower.indexOf(wanted, from);
    if (offset < 0) return undefined;
    const after = text.charAt(offset + wanted.length);
    if (!/^[A-Za-z0-9_]$/.test(after)) return { type: 'mention', offset, length: wanted.length };
    from = offset + 1;
  }
}

const botCommand = /(?<![\w/])\/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?(?![\w@])/g;
const mention = /(?<![\w@])@[A-Za-z0-9_]{4,32}(?!\w)/g;
const url = /(?<![\w/])https?:\/\/[^\s<>"]{1,2000}/g;

/** `bot_command`, `mention` and `url` entities, as the server detects them in a message a user typed. */
export function detectEntities(text: string): MessageEntity[] {
  const found: MessageEntity[] = [];
  for (const [type, pattern] of [
    ['bot_command', botCommand],
    ['mention', mention],
    ['url', url],
  ] as const) {
    for (const match of text.matchAll(pattern)) found.push({ type, offset: match.index, length: match[0].length });
  }
  return found.sort((left, right) => left.offset - right.offset);
}

/** The text an entity covers. */
export function entityText(text: string, entity: MessageEntity): string {
  return text.slice(entity.offset, entity.offset + entity.length);
}
