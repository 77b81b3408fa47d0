import type { ParsedCommand } from './command.js';

export type CommandParse =
  | { kind: 'command'; command: ParsedCommand }
  | { kind: 'other-bot' } // `/cmd@someone_else`: not ours to answer
  | { kind: 'not-a-command' };

// `/name` or `/name@botname`, name of letters, digits, `_` or `-` (platform command grammar; Telegram allows 32).
const commandHead = /^\/([A-Za-z][\w-]{0,31})(?:@([\w.-]{1,64}))?(?=\s|$)/;

/**
 * Parses a command message; shared by every platform. `botUsername` is the bot's username on the message's
 * platform, as its adapter reported it: `/cmd@someone_else` is then another bot's. Without it any `@name` is ours.
 */
export function parseCommand(text: string, botUsername?: string): CommandParse {
  const trimmed = text.trimStart();
  const head = commandHead.exec(trimmed);
  if (!head) return { kind: 'not-a-command' };
  const [whole, name = '', addressee] = head;
  if (addressee && botUsername && addressee.toLowerCase() !== botUsername.toLowerCase()) return { kind: 'other-bot' };
  const rest = trimmed.slice(whole.length).trim();
  return { kind: 'command', command: { name: name.toLowerCase(), rest, words: splitWords(rest) } };
}

/** Splits on whitespace; "double" or “curly” quoted parts stay together (quotes removed). */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: string | null = null;
  let inWord = false;
  for (const character of text.slice(0, 10_000)) {
    if (quote !== null) {
      if (character === quote) quote = null;
      else current += character;
      continue;
    }
    if (character === '"' || character === '“') {
      quote = character === '"' ? '"' : '”';
      inWord = true;
      continue;
    }
    if (/\s/.test(character)) {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
      continue;
    }
    current += character;
    inWord = true;
  }
  if (inWord) words.push(current);
  return words;
}
