import { periodDays } from '../../../commands/usage-report.js';
import { lastDays } from '../../../storage/usage-store.js';
import type { AdminServices } from '../admin-services.js';

// The spaces the stores can name: the knowledge bases' owners, the spaces with usage in the last 30 days (the usage
// page's month), with a reminder, or with a catch-up log kept. The settings store answers per key only, so a space
// known to its settings alone is opened by its key (the list page's form) — or is listed once it is used.

export interface KnownSpace {
  knowledgeBases: number;
  /** Turns in the last 30 days. */
  turns: number;
}

/** Spaces read from the reminder store and from the catch-up log, each. */
const maximumPerStore = 1_000;

export async function knownSpaces(services: Pick<AdminServices, 'knowledge' | 'storage' | 'now' | 'timeZone' | 'log'>): Promise<Map<string, KnownSpace>> {
  const failed = (store: string) => (error: unknown) => {
    services.log.warn({ store, error: String(error) }, 'admin page: a store could not list its spaces');
    return [];
  };
  const [bases, usage, withReminders, logged] = await Promise.all([
    services.knowledge.listKnowledgeBases().catch(failed('knowledge')),
    services.storage.usage.totals({ days: lastDays(services.now(), periodDays['30d'], services.timeZone) }).catch(failed('usage')),
    services.storage.reminders.spaces(maximumPerStore).catch(failed('reminders')),
    services.storage.groupLog.spaces(maximumPerStore).catch(failed('catch-up')),
  ]);
  const spaces = new Map<string, KnownSpace>();
  const entry = (spaceKey: string): KnownSpace => {
    let known = spaces.get(spaceKey);
    if (!known) spaces.set(spaceKey, (known = { knowledgeBases: 0, turns: 0 }));
    return known;
  };
  for (const base of bases) entry(base.spaceKey).knowledgeBases += 1;
  for (const row of usage) entry(row.spaceKey).turns += row.counts.turns;
  for (const spaceKey of [...withReminders, ...logged]) entry(spaceKey);
  return spaces;
}
