import { z } from 'zod';

// What a space's admins chose with /settings (docs/architecture.md, "Space settings"). Every field is optional: an
// absent one is the bot-wide default from the configuration. Stored as plain JSON in the shared store and read back
// through `parseSpaceSettings`, which keeps only fields of the right shape and range: a stored value is input too.

/** th / en: the bot speaks it and answers in it; follow: each question's own language. */
export type AnswerLanguage = 'th' | 'en' | 'follow';
/** mention: a mention or a reply; name: also its name as a word; every-message: every message in one conversation. */
export type TriggerMode = 'mention' | 'name' | 'every-message';

export interface SpaceSettings {
  /** Extra persona instructions, in the system prompt after the bot's own rules. */
  instructions?: string;
  language?: AnswerLanguage;
  trigger?: TriggerMode;
  /** every-message: the conversation (a channel, a topic) it was set in; elsewhere in the space, mention applies. */
  triggerConversation?: string;
  /** name: the words that call the bot (the bot's own names when absent). */
  names?: string[];
  /** How many of the group's recent unaddressed messages go with a question (0: none). */
  groupContext?: number;
  /** Messages per user per minute in this space. */
  quotaPerMinute?: number;
  /** Answers shown while written (where the platform can). */
  streaming?: boolean;
  /** The message a question replies to goes into the turn. */
  quotes?: boolean;
  /** Catch-up (/summary on): the group's messages are kept this many days for /summary; absent: not kept. */
  catchUpDays?: number;
  /** Who changed them last (`platform:id`) and when (ISO): shown in /settings. */
  updatedBy?: string;
  updatedAt?: string;
}

export const spaceSettingsLimits = {
  instructionsChars: 500,
  instructionsLines: 10,
  names: 3,
  nameChars: 20,
  groupContext: 50,
  /** A space admin may lower the quota; only a bot admin may raise it, up to this. */
  quotaPerMinute: 120,
  conversationKeyChars: 200,
  /** Catch-up retention: a month at most (the log is bounded per space as well). */
  catchUpDays: 30,
};

const limits = spaceSettingsLimits;
const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);
const storedSchema = z.object({
  instructions: optional(z.string().min(1).max(limits.instructionsChars)),
  language: optional(z.enum(['th', 'en', 'follow'])),
  trigger: optional(z.enum(['mention', 'name', 'every-message'])),
  triggerConversation: optional(z.string().min(1).max(limits.conversationKeyChars)),
  names: optional(z.array(z.string().min(1).max(limits.nameChars)).min(1).max(limits.names)),
  groupContext: optional(z.number().int().min(0).max(limits.groupContext)),
  quotaPerMinute: optional(z.number().int().min(1).max(limits.quotaPerMinute)),
  streaming: optional(z.boolean()),
  quotes: optional(z.boolean()),
  catchUpDays: optional(z.number().int().min(1).max(limits.catchUpDays)),
  updatedBy: optional(z.string().max(limits.conversationKeyChars)),
  updatedAt: optional(z.string().max(40)),
});

/** A stored value → the settings it holds; a field of the wrong shape is dropped, anything else is no settings. */
export function parseSpaceSettings(value: unknown): SpaceSettings {
  const parsed = storedSchema.safeParse(value);
  if (!parsed.success) return {};
  return Object.fromEntries(Object.entries(parsed.data).filter(([, field]) => field !== undefined)) as SpaceSettings;
}

/** Whether nothing was chosen (only the who/when of a reset are left). */
export function isDefault(settings: SpaceSettings): boolean {
  return Object.keys(settings).every((key) => key === 'updatedBy' || key === 'updatedAt');
}

/** The words that call the bot under the name trigger when a space named none: its BOT_NAME (and แสง for Saeng). */
export function defaultCallNames(botName: string): string[] {
  const own = botName.normalize('NFC').toLowerCase().trim();
  return own === 'saeng' ? ['แสง', own] : [own];
}
