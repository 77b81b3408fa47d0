import type { PushQuota } from '../shared/channel.js';
import { commandEntry } from '../shared/command-table.js';
import { say } from '../shared/i18n.js';
import { thaiDigitsToAscii } from '../shared/thai-digits.js';
import type { InboundMessage, Language, Platform } from '../shared/types.js';
import { reminderOrigin } from '../reminders/reminder-origin.js';
import type { Reminder, ReminderLimits, ReminderStore } from '../reminders/reminder-store.js';
import { ambiguityTexts, candidatesText, orWord, reminderTexts } from '../reminders/reminder-texts.js';
import { describeWhen } from '../reminders/when/describe-when.js';
import { parseWhen } from '../reminders/when/parse-when.js';
import { parseReminderRequest, type ReminderRequest } from '../reminders/when/reminder-request.js';
import type { WhenResult } from '../reminders/when/when-types.js';
import { wallClockOf } from '../reminders/when/zoned-time.js';
import { adminIdOf } from './admin-id.js';
import type { CommandContext, CommandHandler, ParsedCommand } from './command.js';

// `/remind <when> <what>`, `/remind cancel N`, `/reminders` (docs/architecture.md, "Reminders"). The time is resolved
// by code (src/reminders/when/), never by the model; an ambiguous or past time is asked about, not guessed, and the
// confirmation states the absolute date and time that was saved. A request in words addressed to the bot
// ("เตือนประชุมพรุ่งนี้ 9 โมง") comes here too (src/pipeline/router.ts).

export interface RemindCommandOptions {
  store: ReminderStore;
  timeZone: string;
  limits: ReminderLimits;
  /** The DLP's verdict on the reminder's text: kinds of credential found (none: it may be kept). */
  credentialKinds(text: string): string[];
  /** The platform's push quota, where reminders cost one (LINE); undefined when unknown. */
  pushQuota?(platform: Platform): Promise<PushQuota | undefined>;
  /** A reminder was saved: the delivery loop looks at its next due time again. */
  added?(): void;
}

/** Below this many push messages left this month, the confirmation says what a reminder costs. */
const lowPushQuota = 100;

const listWords = new Set(['list', 'ls', 'รายการ', 'ดู']);
const cancelWords = new Set(['cancel', 'delete', 'remove', 'rm', 'ยกเลิก', 'ลบ']);
const addWords = new Set(['add', 'set', 'ตั้ง', 'เพิ่ม']);

const clock = (at: Date, timeZone: string) => new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);

/** The answer to a time the code will not guess: which question, or why not. */
function unresolvedText(when: Exclude<WhenResult, { kind: 'at' }>, language: Language, timeZone: string): string {
  if (when.kind === 'none') return say(ambiguityTexts['no-date-or-time'], language);
  if (when.kind === 'past') return say(reminderTexts.past, language, { when: describeWhen(when.at, undefined, language, timeZone) });
  const times = when.candidates.map((candidate) => clock(candidate, timeZone)).join(say(orWord, language));
  return say(ambiguityTexts[when.reason], language, { candidates: times ? say(candidatesText, language, { times }) : '' });
}

function subjectText(reminder: Pick<Reminder, 'text'>, language: Language): string {
  return reminder.text || say(reminderTexts.noSubject, language);
}

/** The request in `text` ("พรุ่งนี้ 9 โมง ประชุม"): with its reminder words, else the time words and the rest. */
export function requestIn(text: string, now: Date, timeZone: string): ReminderRequest {
  const request = parseReminderRequest(text, { now, timeZone });
  if (request && request.when.kind !== 'none') return request;
  const when = parseWhen(text, { now, timeZone });
  if (when.kind === 'none') return { subject: request?.subject ?? text.trim(), when };
  const subject = `${text.slice(0, when.span.start)} ${text.slice(when.span.end)}`.replace(/\s{2,}/g, ' ').trim();
  return { subject, when };
}

export function createRemindCommand(options: RemindCommandOptions): CommandHandler {
  const { store, timeZone, limits } = options;
  const timeOfDay = (at: Date) => {
    const { hour, minute } = wallClockOf(at, timeZone);
    return { hour, minute };
  };

  /** Push messages left this month where reminders cost one: 0 when none are, undefined when the platform does not say. */
  const pushesLeft = async (platform: Platform): Promise<number | undefined> => {
    const quota = await options.pushQuota?.(platform).catch(() => undefined);
    if (!quota) return undefined;
    if (quota.exhausted) return 0;
    return quota.limit === undefined ? undefined : Math.max(0, quota.limit - quota.used);
  };

  const add = async (text: string, context: CommandContext): Promise<string> => {
    const { message, language } = context;
    if (text.trim() === '') return say(reminderTexts.usage, language);
    const { subject, when } = requestIn(text, context.now(), timeZone);
    if (when.kind !== 'at') return unresolvedText(when, language, timeZone);
    if (options.credentialKinds(subject).length > 0) return say(reminderTexts.credential, language);
    const left = await pushesLeft(message.platform);
    if (left === 0) return say(reminderTexts.lineQuotaExhausted, language);
    const result = await store.add(
      {
        spaceKey: message.spaceKey,
        userKey: adminIdOf(message),
        userName: message.sender.name,
        text: subject,
        dueAt: when.at.getTime(),
        ...(when.recurrence ? { recurrence: when.recurrence, timeOfDay: timeOfDay(when.at) } : {}),
        timeZone,
        language,
        origin: reminderOrigin(message),
        createdAt: context.now().getTime(),
      },
      limits,
    );
    if (!result.added) {
      return result.reason === 'space-full'
        ? say(reminderTexts.spaceFull, language, { limit: limits.perSpace })
        : say(reminderTexts.userFull, language, { limit: limits.perUser });
    }
    options.added?.();
    const { reminder } = result;
    const saved = say(reminderTexts.saved, language, {
      number: reminder.number,
      subject: subjectText(reminder, language),
      when: describeWhen(when.at, when.recurrence, language, timeZone),
    });
    return left !== undefined && left < lowPushQuota ? `${saved}\n${say(reminderTexts.lineQuotaLow, language, { left })}` : saved;
  };

  const list = async (message: InboundMessage, language: Language): Promise<string> => {
    const reminders = await store.list(message.spaceKey);
    if (reminders.length === 0) return say(reminderTexts.listEmpty, language);
    const lines = reminders.map((reminder) =>
      say(reminderTexts.listItem, language, {
        number: reminder.number,
        subject: subjectText(reminder, language),
        when: describeWhen(new Date(reminder.dueAt), reminder.recurrence, language, reminder.timeZone),
        name: reminder.userName,
      }),
    );
    return [say(reminderTexts.listHeading, language, { count: reminders.length }), ...lines].join('\n');
  };

  const cancel = async (word: string | undefined, context: CommandContext): Promise<string> => {
    const { message, language } = context;
    const number = Number(thaiDigitsToAscii((word ?? '').replace(/^#/, '')));
    if (!Number.isInteger(number) || number < 1) return say(reminderTexts.cancelUsage, language);
    const reminder = (await store.list(message.spaceKey)).find((candidate) => candidate.number === number);
    if (!reminder) return say(reminderTexts.cancelMissing, language, { number });
    // Its author, an admin of this chat (the platform's, or a direct chat's owner) or a bot admin.
    const mayCancel = reminder.userKey === adminIdOf(message) || context.isGlobalAdmin || message.sender.isPlatformAdmin || message.chatKind === 'direct';
    if (!mayCancel) return say(reminderTexts.cancelRefused, language, { name: reminder.userName });
    const removed = await store.cancel(message.spaceKey, number);
    if (!removed) return say(reminderTexts.cancelMissing, language, { number });
    return say(reminderTexts.cancelled, language, { number, subject: subjectText(removed, language) });
  };

  const run = async (command: ParsedCommand, context: CommandContext): Promise<string> => {
    const first = command.words[0]?.toLowerCase();
    if (first !== undefined && listWords.has(first)) return list(context.message, context.language);
    if (first !== undefined && cancelWords.has(first)) return cancel(command.words[1], context);
    const text = first !== undefined && addWords.has(first) ? command.rest.slice(command.words[0]?.length ?? 0) : command.rest;
    return add(text, context);
  };

  return {
    name: 'remind',
    summary: commandEntry('remind').summary,
    run: async (command, context) => {
      try {
        return { text: await run(command, context) };
      } catch (error) {
        context.log.warn({ error: String(error) }, 'reminder store failed');
        return { text: say(reminderTexts.storeDown, context.language) };
      }
    },
  };
}

/** `/reminders`: the list, as `/remind list`. */
export function createRemindersCommand(remind: CommandHandler): CommandHandler {
  return {
    name: 'reminders',
    summary: commandEntry('reminders').summary,
    run: (command, context) => remind.run({ ...command, name: 'remind', words: ['list'], rest: 'list' }, context),
  };
}
