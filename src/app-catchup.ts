import type { TextCompleter } from '../agent/model/index.js';
import { summarizeLog } from '../agent/catchup/summarize-log.js';
import type { AppOptions } from './app.js';
import type { Logger } from './shared/log.js';
import { CatchUpRecorder } from './catchup/catch-up-recorder.js';
import { summaryCallWords } from './catchup/summary-call.js';
import { catchUpTexts } from './catchup/catch-up-texts.js';
import { DigestSchedule } from './catchup/digest-schedule.js';
import type { CommandDispatcher } from './commands/dispatcher.js';
import { createSummaryCommand, summaryMaxEntries, type CatchUpSummarizer } from './commands/summary.js';
import type { ComposedText } from './reminders/reminder-delivery.js';
import { defaultReminderLimits, type Reminder } from './reminders/reminder-store.js';
import { say } from './shared/i18n.js';
import { sentAtText } from './shared/sent-at-text.js';
import { maskCredentials } from './dlp/mask-credentials.js';
import type { RouterDependencies } from './pipeline/router.js';
import type { SpaceSettingsStore } from './settings/space-settings-store.js';
import type { Platform } from './shared/types.js';
import type { Storage } from './storage/storage.js';

// Catch-up (docs/architecture.md, "Catch-up"): the log of groups whose admin turned it on, `/summary` over it, and
// the router's hooks (every message logged; a catch-up asked for in words is /summary).

export interface CatchUpServices {
  storage: Storage;
  commands: CommandDispatcher;
  spaceSettings: SpaceSettingsStore;
  secrets: readonly string[];
  /** The model, for the summaries (agent/catchup/summarize-log.ts). */
  complete: TextCompleter;
  readsAllGroupMessages?: (platform: Platform) => boolean | undefined;
}

/** Days a group's messages are kept when an admin says only "/summary on". */
export const defaultCatchUpDays = 7;

export interface WiredCatchUp {
  /** The router's hooks: every message of a group that keeps them logged; a catch-up in words is /summary. */
  router: NonNullable<RouterDependencies['catchUp']>;
  /** Writes a daily digest when it is due (ReminderDeliveryOptions.compose). */
  composeDigest(reminder: Reminder): Promise<ComposedText>;
}

export function wireCatchUp(options: AppOptions, services: CatchUpServices): WiredCatchUp {
  const { config, log } = options;
  const { storage, secrets } = services;
  const summarize = summarizerOver(services.complete, config.BOT_TIMEZONE, log);
  const clock = options.now ?? (() => new Date());
  const adapters = new Map((options.adapters ?? []).map((adapter) => [adapter.platform, adapter]));
  const recorder = new CatchUpRecorder({
    store: storage.groupLog,
    // What could not be located stays out of the log altogether (the recorder keeps the message's place).
    mask: (text) => {
      const masked = maskCredentials(text, secrets);
      return masked.unmasked.length > 0 ? undefined : masked.text;
    },
    linkFor: (message) => adapters.get(message.platform)?.messageLink?.(message),
    now: () => clock().getTime(),
    log,
  });
  services.commands.add(
    createSummaryCommand({
      digests: new DigestSchedule(storage.reminders, config.BOT_TIMEZONE, defaultReminderLimits),
      settings: services.spaceSettings,
      log: storage.groupLog,
      summarize,
      timeZone: config.BOT_TIMEZONE,
      defaultDays: defaultCatchUpDays,
      ...(services.readsAllGroupMessages ? { readsAllGroupMessages: services.readsAllGroupMessages } : {}),
    }),
  );
  const composeDigest = async (reminder: Reminder): Promise<ComposedText> => {
    // Catch-up turned off since: the digest goes with it.
    if ((await services.spaceSettings.get(reminder.spaceKey)).catchUpDays === undefined) return { stop: true };
    const now = clock().getTime();
    const entries = await storage.groupLog.read(reminder.spaceKey, { from: now - dayMs, to: now, limit: summaryMaxEntries });
    if (entries.length === 0) return { skip: true };
    const { language } = reminder;
    const summary = await summarize(entries, { language, onProgress: () => undefined });
    if (summary === undefined) throw new Error('the model did not summarize');
    const from = sentAtText(new Date(entries[0]?.at ?? now), language, config.BOT_TIMEZONE, now);
    return { text: `${say(catchUpTexts.digestHeading, language, { count: entries.length, from })}\n\n${summary}` };
  };
  return {
    router: {
      record: (message, days) => recorder.record(message, days),
      summaryWords: summaryCallWords,
    },
    composeDigest,
  };
}

const dayMs = 24 * 3_600_000;

/** /summary's summarizer over the model: the text, or undefined when it could not be made (logged with why). */
function summarizerOver(complete: TextCompleter, timeZone: string, log: Logger): CatchUpSummarizer {
  return async (entries, { language, onProgress }) => {
    const result = await summarizeLog(entries, { complete, language, timeZone, onProgress });
    log.info({ outcome: result.outcome, entries: entries.length, calls: result.calls, promptTokens: result.promptTokens }, 'catch-up summary');
    if (result.outcome !== 'summary') {
      if (result.outcome === 'failed')
        log.warn({ reason: result.reason, error: result.error === undefined ? undefined : String(result.error) }, 'catch-up summary failed');
      return undefined;
    }
    return result.text;
  };
}
