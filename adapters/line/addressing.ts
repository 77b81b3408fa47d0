import type { webhook } from '@line/bot-sdk';

// Whether a LINE text speaks to this bot, and the text with the bot's mentions taken out (docs/platforms.md §3.3): a
// mentionee of type `user` with `isSelf: true` is the bot; `@All` alone is not addressing. `index` and `length` are
// UTF-16 code units, which are JavaScript string indices.

export interface LineAddressing {
  mentionsBot: boolean;
  text: string;
}

export function lineAddressing(text: string, mention: webhook.Mention | undefined): LineAddressing {
  const ofBot = (mention?.mentionees ?? []).filter((mentionee) => mentionee.type === 'user' && (mentionee as webhook.UserMentionee).isSelf === true);
  if (ofBot.length === 0) return { mentionsBot: false, text: text.trim() };
  let stripped = text;
  // From the end, so earlier indices stay valid.
  for (const mentionee of [...ofBot].sort((left, right) => right.index - left.index)) {
    const start = Math.max(0, Math.min(mentionee.index, stripped.length));
    stripped = stripped.slice(0, start) + stripped.slice(Math.min(stripped.length, start + Math.max(0, mentionee.length)));
  }
  return { mentionsBot: true, text: stripped.trim() };
}
