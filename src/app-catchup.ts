import type { AppOptions } from './app.js';
import { CatchUpRecorder } from './catchup/catch-up-recorder.js';
import { summaryCallWords } from './catchup/summary-call.js';
import type { CommandDispatcher } from './commands/dispatcher.js';
import { createSummaryCommand, type CatchUpSummarizer } from './commands/summary.js';
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
  summarize: CatchUpSummarizer;
  readsAllGroupMessages?: (platform: Platform) => boolean | undefined;
}

/** Days a group's messages are kept when an admin says only "/summary on". */
export const defaultCatchUpDays = 7;

export function wireCatchUp(options: AppOptions, services: CatchUpServices): NonNullable<RouterDependencies['catchUp']> {
  const { config, log } = options;
  const { storage, secrets } = services;
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
      settings: services.spaceSettings,
      log: storage.groupLog,
      summarize: services.summarize,
      timeZone: config.BOT_TIMEZONE,
      defaultDays: defaultCatchUpDays,
      ...(services.readsAllGroupMessages ? { readsAllGroupMessages: services.readsAllGroupMessages } : {}),
    }),
  );
  return {
    record: (message, days) => recorder.record(message, days),
    summaryWords: (message) => summaryCallWords(message),
  };
}
