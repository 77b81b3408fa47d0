// The bot's own mention tokens in a Discord message (docs/platforms.md §1.2): `<@id>` and the older `<@!id>` for the
// bot's user, `<@&id>` for its managed role. They are how the user called the bot, not part of the question.

/** Discord ids are snowflakes: 17–20 digits. The pattern is linear and the content is at most 4,000 characters. */
const mentionToken = /<@(!?|&)(\d{17,20})>/g;
const maxContentLength = 4_000;

export interface BotMentionIds {
  userId: string;
  /** The bot's managed role in this guild (none in DMs). */
  roleId: string | undefined;
}

/** The content with the bot's mention tokens taken out (other users' and roles' mentions stay). */
export function stripBotMentions(content: string, bot: BotMentionIds): string {
  return content
    .slice(0, maxContentLength)
    .replace(mentionToken, (token: string, kind: string, id: string) => {
      const isBot = kind === '&' ? id === bot.roleId : id === bot.userId;
      return isBot ? '' : token;
    })
    .trim();
}
