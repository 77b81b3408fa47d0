import type { AppOptions } from './app.js';
import type { CommandDispatcher } from './commands/dispatcher.js';
import { createRemindCommand, createRemindersCommand } from './commands/remind.js';
import type { Outbound } from './pipeline/outbound.js';
import { ReminderDelivery, type ReminderDeliveryOptions } from './reminders/reminder-delivery.js';
import { defaultReminderLimits } from './reminders/reminder-store.js';
import type { Storage } from './storage/storage.js';

// Reminders (docs/architecture.md, "Reminders"): `/remind` and `/reminders` on the dispatcher, and the loop that
// sends them when due through the adapters, from the shared store (DATA_DIR/state.db or Redis).

export interface ReminderServices {
  storage: Storage;
  commands: CommandDispatcher;
  /** The outbound DLP's verdict on a text a command keeps. */
  credentialKinds(text: string): string[];
  /** Writes a reminder of a kind when due (a catch-up digest: app-catchup.ts). */
  compose?: ReminderDeliveryOptions['compose'];
}

export interface WiredReminders {
  delivery: ReminderDelivery;
  /** Hands the delivery loop the outbound DLP, once the pipeline made it (before `delivery.start()`). */
  sendThrough(outbound: Pick<Outbound, 'prepare'>): void;
}

export function wireReminders(options: AppOptions, services: ReminderServices): WiredReminders {
  const { config, log } = options;
  const { storage, commands } = services;
  const clock = options.now ?? (() => new Date());
  let outbound: Pick<Outbound, 'prepare'> | undefined;
  const delivery = new ReminderDelivery({
    store: storage.reminders,
    adapters: options.adapters ?? [],
    platformStarted: options.platformStarted,
    prepare: (reply, conversationKey, language) => {
      if (!outbound) throw new Error('reminders started before the outbound DLP was wired');
      return outbound.prepare(reply, conversationKey, language);
    },
    now: () => clock().getTime(),
    log,
    ...(options.reminderScheduler ? { scheduler: options.reminderScheduler } : {}),
    ...(services.compose ? { compose: services.compose } : {}),
  });
  const remind = createRemindCommand({
    store: storage.reminders,
    timeZone: config.BOT_TIMEZONE,
    limits: defaultReminderLimits,
    credentialKinds: services.credentialKinds,
    pushQuota: async (platform) => options.adapters?.find((adapter) => adapter.platform === platform)?.pushQuota?.(),
    added: () => void delivery.wake(),
  });
  commands.add(remind);
  commands.add(createRemindersCommand(remind));
  return { delivery, sendThrough: (wired) => (outbound = wired) };
}
