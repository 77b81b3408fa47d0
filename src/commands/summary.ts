import { catchUpTexts as texts } from '../catchup/catch-up-texts.js';
import type { GroupLogEntry } from '../catchup/group-log-entry.js';
import type { GroupLogStore } from '../catchup/group-log-store.js';
import type { DigestSchedule } from '../catchup/digest-schedule.js';
import { parseSummaryRequest, type SummarySpan } from '../catchup/summary-request.js';
import { describeWhen } from '../reminders/when/describe-when.js';
import { parseWhen } from '../reminders/when/parse-when.js';
import { instantOf, wallClockOf } from '../reminders/when/zoned-time.js';
import type { SpaceSettings } from '../settings/space-settings.js';
import { spaceSettingsLimits } from '../settings/space-settings.js';
import type { SpaceSettingsStore } from '../settings/space-settings-store.js';
import { commandEntry } from '../shared/command-table.js';
import { say, type Localized } from '../shared/i18n.js';
import { sentAtText } from '../shared/sent-at-text.js';
import type { Language, Platform } from '../shared/types.js';
import { adminIdOf } from './admin-id.js';
import type { CommandContext, CommandHandler, CommandResult } from './command.js';

// `/summary` (docs/architecture.md, "Catch-up"): a summary of what the group said — since the asker's last message,
// today, or the last N hours — from the group's catch-up log, and the admins' switch of that log (on with its
// retention, off deleting it). The summary itself is the summarizer's (agent/catchup/),
// handed in by the composition root; this file picks the span and says what happened.

/** The summary of `entries` in `language`, or undefined when the model failed. */
export type CatchUpSummarizer = (
  entries: readonly GroupLogEntry[],
  options: { language: Language; onProgress(done: number, total: number): void },
) => Promise<string | undefined>;

export interface SummaryCommandOptions {
  settings: Pick<SpaceSettingsStore, 'get' | 'update'>;
  log: Pick<GroupLogStore, 'read' | 'lastSaidBy' | 'deleteSpace'>;
  summarize: CatchUpSummarizer;
  timeZone: string;
  /** Days kept when an admin says only "/summary on". */
  defaultDays: number;
  /** The daily digests (a kind of reminder). */
  digests: Pick<DigestSchedule, 'set' | 'clear'>;
  /** Whether the platform shows the bot every group message (false: Telegram's privacy mode), as its adapter said. */
  readsAllGroupMessages?: (platform: Platform) => boolean | undefined;
}

/** Messages one summary reads at most (the newest): bounded model calls on a CPU box. */
export const summaryMaxEntries = 2_000;
const hourMs = 3_600_000;
/** A last message this recent says little about what was missed: the last day is summarized instead. */
const sinceMeMinimumMs = 15 * 60_000;

function canSwitch(context: CommandContext): boolean {
  return context.isGlobalAdmin || context.message.sender.isPlatformAdmin;
}

function refusal(context: CommandContext): Localized {
  const { message } = context;
  return message.platform === 'line' ? texts.adminsOnlyLine : texts.adminsOnly;
}

export function createSummaryCommand(options: SummaryCommandOptions): CommandHandler {
  const maxDays = spaceSettingsLimits.catchUpDays;

  /** The span's start (epoch ms) and how it is said in the heading. */
  const startOf = async (span: SummarySpan, context: CommandContext, now: number): Promise<{ from: number; said: string }> => {
    const { message, language } = context;
    if (span.kind === 'hours') return { from: now - span.hours * hourMs, said: say(texts.spanHours, language, { hours: span.hours }) };
    if (span.kind === 'today') {
      const today = wallClockOf(new Date(now), options.timeZone);
      return { from: instantOf(today, 0, 0, options.timeZone).getTime(), said: say(texts.spanToday, language) };
    }
    const speaker = `${message.platform}:${message.sender.id}`;
    const last = await options.log.lastSaidBy(message.spaceKey, speaker, message.receivedAt.getTime());
    if (last !== undefined && now - last >= sinceMeMinimumMs) return { from: last + 1, said: say(texts.spanSinceYou, language) };
    return { from: now - 24 * hourMs, said: say(texts.spanDay, language) };
  };

  const summarize = async (span: SummarySpan, context: CommandContext): Promise<CommandResult> => {
    const { message, language } = context;
    const now = context.now().getTime();
    const { from, said } = await startOf(span, context, now);
    const entries = await options.log.read(message.spaceKey, { from, to: message.receivedAt.getTime(), limit: summaryMaxEntries + 1 });
    if (entries.length === 0) return { text: say(texts.nothing, language, { span: said }) };
    const cut = entries.length > summaryMaxEntries;
    const kept = cut ? entries.slice(-summaryMaxEntries) : entries;
    const summary = await options.summarize(kept, {
      language,
      // One call is one wait; several say how many at once, then each one done (a CPU model takes minutes).
      onProgress: (done, total) => {
        if (total <= 1 || done >= total) return;
        const text = done === 0 ? say(texts.progressStart, language, { count: kept.length, total }) : say(texts.progress, language, { done, total });
        context.progress({ source: 'summary', text });
      },
    });
    if (summary === undefined) return { text: say(texts.failed, language) };
    const first = kept[0]?.at ?? from;
    const heading = say(texts.heading, language, { span: said, count: kept.length, from: sentAtText(new Date(first), language, options.timeZone, now) });
    return {
      text: [heading, cut ? say(texts.cut, language, { count: summaryMaxEntries }) : undefined, '', summary].filter((line) => line !== undefined).join('\n'),
    };
  };

  /** `/summary digest <time>` (in words: "18:00", "6 โมงเย็น") or `off`. */
  const digest = async (said: string | undefined, context: CommandContext): Promise<CommandResult> => {
    const { message, language } = context;
    const { digests } = options;
    if (said === undefined) return { text: say((await digests.clear(message.spaceKey)) > 0 ? texts.digestOff : texts.digestNone, language) };
    const when = parseWhen(`ทุกวัน ${said}`, { now: context.now(), timeZone: options.timeZone });
    if (when.kind !== 'at') return { text: say(texts.digestTime, language) };
    const time = wallClockOf(when.at, options.timeZone);
    const result = await digests.set(message, { hour: time.hour, minute: time.minute }, language, context.now());
    if (!result.added) return { text: say(texts.digestFull, language) };
    const clock = `${String(time.hour).padStart(2, '0')}:${String(time.minute).padStart(2, '0')}`;
    return { text: say(texts.digestOn, language, { time: clock, next: describeWhen(new Date(result.reminder.dueAt), undefined, language, options.timeZone) }) };
  };

  const change = async (context: CommandContext, patch: (current: SpaceSettings) => SpaceSettings) =>
    options.settings.update(context.message.spaceKey, (current) => ({
      ...patch(current),
      updatedBy: adminIdOf(context.message),
      updatedAt: context.now().toISOString(),
    }));

  return {
    name: 'summary',
    summary: commandEntry('summary').summary,
    usesModel: true,
    async run(command, context) {
      const { message, language, log } = context;
      if (message.chatKind !== 'group') return { text: say(texts.groupOnly, language) };
      const request = parseSummaryRequest(command.words, maxDays);
      const space = message.spaceKey;
      try {
        switch (request.kind) {
          case 'help':
          case 'invalid':
            return { text: say(texts.invalid, language, { maxDays }) };
          case 'summary': {
            const settings = await options.settings.get(space);
            if (settings.catchUpDays === undefined) return { text: say(texts.notOn, language) };
            return await summarize(request.span, context);
          }
          case 'on': {
            if (!canSwitch(context)) return { text: say(refusal(context), language) };
            const days = request.days ?? options.defaultDays;
            let wasOn = false;
            await change(context, (current) => {
              wasOn = current.catchUpDays !== undefined;
              return { ...current, catchUpDays: days };
            });
            log.info({ space, days, by: adminIdOf(message) }, 'catch-up turned on');
            const blind = options.readsAllGroupMessages?.(message.platform) === false;
            return {
              text: [say(wasOn ? texts.retentionChanged : texts.turnedOn, language, { days }), blind ? say(texts.blind, language) : undefined]
                .filter(Boolean)
                .join('\n'),
            };
          }
          case 'off': {
            if (!canSwitch(context)) return { text: say(refusal(context), language) };
            if ((await options.settings.get(space)).catchUpDays === undefined) return { text: say(texts.alreadyOff, language) };
            await change(context, ({ catchUpDays: _days, ...rest }) => rest);
            const count = await options.log.deleteSpace(space);
            await options.digests.clear(space);
            log.info({ space, deleted: count, by: adminIdOf(message) }, 'catch-up turned off');
            return { text: say(texts.turnedOff, language, { count }) };
          }
          case 'digest':
            if (!canSwitch(context)) return { text: say(refusal(context), language) };
            if ((await options.settings.get(space)).catchUpDays === undefined) return { text: say(texts.alreadyOff, language) };
            return await digest(request.at, context);
        }
      } catch (error) {
        log.warn({ space, error: String(error) }, 'catch-up store unavailable');
        return { text: say(texts.storeDown, language) };
      }
    },
  };
}
