// Which conversations a knowledge base may be bound to from the page: those of its own space. Telegram's and LINE's
// conversation keys name their space (`telegram:<chat>` or `telegram:<chat>:<topic>`, `line:<chat>`): the knowledge
// store moves a space's bindings by the same rule. Discord's (`discord:<channel>`) and the console's do not: a
// channel id says nothing of its server, so only a bot admin — who may bind anything in the chat too — binds there
// from the page; a group admin uses `/kb bind` in the channel itself.

export type ConversationCheck = 'ok' | 'malformed' | 'other-space' | 'space-unknown';

/** Platforms whose conversation keys do not carry the space's key. */
const opaquePlatforms = new Set(['discord', 'console']);

const maxKeyLength = 200;

function platformOf(key: string): string {
  return key.slice(0, Math.max(0, key.indexOf(':')));
}

/** `platform:rest`, printable, without spaces or controls, at most 200 characters. */
export function isConversationKeyShape(key: string): boolean {
  if (key.length > maxKeyLength || platformOf(key) === '' || key.endsWith(':')) return false;
  for (const character of key) {
    const code = character.codePointAt(0) ?? 0;
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || character.trim() === '') return false;
  }
  return true;
}

export function belongsToSpace(conversationKey: string, spaceKey: string): boolean {
  return conversationKey === spaceKey || conversationKey.startsWith(`${spaceKey}:`);
}

/** Whether the session may bind `conversationKey` to a knowledge base of `spaceKey`. */
export function checkConversation(conversationKey: string, spaceKey: string, global: boolean): ConversationCheck {
  if (!isConversationKeyShape(conversationKey)) return 'malformed';
  if (belongsToSpace(conversationKey, spaceKey)) return 'ok';
  const platform = platformOf(spaceKey);
  if (!opaquePlatforms.has(platform)) return 'other-space';
  if (platformOf(conversationKey) !== platform) return 'other-space';
  return global ? 'ok' : 'space-unknown';
}

/** Whether keys of the space's platform name the space (the page can then list its main conversation). */
export function keysNameTheirSpace(spaceKey: string): boolean {
  return !opaquePlatforms.has(platformOf(spaceKey));
}
