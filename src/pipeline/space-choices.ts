import { askerLanguage } from '../shared/asker-language.js';
import type { InboundMessage, Language } from '../shared/types.js';
import type { SpaceSettings } from '../settings/space-settings.js';
import type { GroupTrigger } from './admission.js';

// What a space's /settings mean for one message (docs/architecture.md, "Space settings"): the router reads the
// space's stored settings once per message and everything downstream takes these values, never the store.

export interface SpaceChoices {
  /** The bot's own words and the answer's language for this message. */
  language: Language;
  /** The space fixed the language: the answer is in it whatever the question's (TurnInput.languageFixed). */
  languageFixed: boolean;
  instructions?: string;
  /** How an unaddressed group message may call the bot here (admission.ts). */
  trigger?: GroupTrigger;
  groupContext?: number;
  quotaPerMinute?: number;
  /** Whether the answer is shown while written. */
  streaming: boolean;
  quotes: boolean;
  /** A group with catch-up on (/summary on): its messages are logged for this many days. */
  catchUpDays?: number;
}

export interface ChoiceDefaults {
  language: Language;
  /** The words that call the bot under the name trigger when the space named none. */
  names: readonly string[];
  /** Whether STREAM_PLATFORMS includes the message's platform. */
  streams(message: InboundMessage): boolean;
}

export function spaceChoices(settings: SpaceSettings, message: InboundMessage, defaults: ChoiceDefaults): SpaceChoices {
  const chosen = settings.language;
  const language = chosen === 'th' || chosen === 'en' ? chosen : chosen === 'follow' ? (askerLanguage(message.text) ?? defaults.language) : defaults.language;
  return {
    language,
    languageFixed: chosen === 'th' || chosen === 'en',
    ...(settings.instructions ? { instructions: settings.instructions } : {}),
    ...triggerOf(settings, message, defaults),
    ...(settings.groupContext === undefined ? {} : { groupContext: settings.groupContext }),
    ...(settings.quotaPerMinute === undefined ? {} : { quotaPerMinute: settings.quotaPerMinute }),
    streaming: settings.streaming ?? defaults.streams(message),
    quotes: settings.quotes ?? true,
    ...(message.chatKind === 'group' && settings.catchUpDays !== undefined ? { catchUpDays: settings.catchUpDays } : {}),
  };
}

function triggerOf(settings: SpaceSettings, message: InboundMessage, defaults: ChoiceDefaults): { trigger?: GroupTrigger } {
  if (message.chatKind !== 'group') return {};
  if (settings.trigger === 'name') return { trigger: { mode: 'name', names: settings.names ?? defaults.names } };
  // Every message of the one conversation it was set in (a channel, a topic); elsewhere in the space, mentions.
  const here = settings.triggerConversation === undefined || settings.triggerConversation === message.conversationKey;
  if (settings.trigger === 'every-message' && here) return { trigger: { mode: 'every-message' } };
  return {};
}
