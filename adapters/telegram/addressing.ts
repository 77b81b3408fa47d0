import type { MessageEntity } from 'telegraf/types';

// Whether a message's text speaks to this bot, and that text with the bot's mentions taken out. Entity offsets and
// lengths are UTF-16 code units, which are JavaScript string indices (docs/platforms.md §2.2), so they slice directly.

export interface BotIdentity {
  id: number;
  /** Without the `@`. */
  username: string;
}

export interface Addressing {
  /** `@bot` (any case), a text_mention of the bot, or `/cmd@bot`. */
  mentionsBot: boolean;
  /** The text with `@bot` and the bot's text_mentions removed; `/cmd@bot` stays for the command parser. */
  text: string;
}

interface Range {
  start: number;
  end: number;
}

/** `/cmd@name` → `name`; a bare `/cmd` → undefined. */
function commandAddressee(command: string): string | undefined {
  const at = command.indexOf('@');
  return at < 0 ? undefined : command.slice(at + 1);
}

function isBotMention(entity: MessageEntity, covered: string, bot: BotIdentity): boolean {
  if (entity.type === 'mention') return covered.toLowerCase() === `@${bot.username}`.toLowerCase();
  if (entity.type === 'text_mention') return entity.user.id === bot.id;
  return false;
}

/** Removes the ranges and tidies the seams: no doubled space where a mention was, no leading `,`/`:` left by one. */
function removeRanges(text: string, ranges: Range[]): string {
  let result = '';
  let cursor = 0;
  for (const range of [...ranges].sort((left, right) => left.start - right.start)) {
    if (range.start < cursor) continue;
    let before = text.slice(cursor, range.start);
    let after = range.end;
    const seamIsStart = result.trim() === '' && before.trim() === '';
    // "@bot, ช่วย…" → "ช่วย…": the punctuation belonged to the address.
    if (seamIsStart && (text[after] === ',' || text[after] === ':')) after += 1;
    // "ถาม @bot ว่า" → "ถาม ว่า": keep one of the two spaces around the mention.
    if (/[ \t]$/.test(before) && /^[ \t]/.test(text.slice(after, after + 1))) before = before.slice(0, -1);
    result += before;
    cursor = after;
  }
  return (result + text.slice(cursor)).trim();
}

export function addressing(text: string, entities: readonly MessageEntity[], bot: BotIdentity): Addressing {
  const removed: Range[] = [];
  let mentionsBot = false;
  for (const entity of entities) {
    const covered = text.slice(entity.offset, entity.offset + entity.length);
    if (isBotMention(entity, covered, bot)) {
      mentionsBot = true;
      removed.push({ start: entity.offset, end: entity.offset + entity.length });
    } else if (entity.type === 'bot_command' && entity.offset === 0) {
      // Only a leading command is one (as telegraf's bot.command sees it); `@otherbot` is left to admission.
      const addressee = commandAddressee(covered);
      if (addressee !== undefined && addressee.toLowerCase() === bot.username.toLowerCase()) mentionsBot = true;
    }
  }
  return { mentionsBot, text: removed.length > 0 ? removeRanges(text, removed) : text.trim() };
}
