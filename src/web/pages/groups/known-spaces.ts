import { periodDays } from '../../../commands/usage-report.js';
import { lastDays } from '../../../storage/usage-store.js';
import type { AdminServices } from '../admin-services.js';

// The spaces the stores can name without a new method: the knowledge bases' owners and the spaces with usage in the
// last 30 days (the usage page's month). The reminder store and the catch-up log answer per space only, and the
// settings store per key, so a space known to those alone is opened by its key (the list page's form) — or is listed
// once it is used.

export interface KnownSpace {
  knowledgeBases: number;
  /** Turns in the last 30 days. */
  turns: number;
}

export async function knownSpaces(services: Pick<AdminServices, 'knowledge' | 'storage' | 'now' | 'timeZone' | 'log'>): Promise<Map<string, KnownSpace>> {
  const failed = (store: string) => (error: unknown) => {
    services.log.warn({ store, error: String(error) }, 'admin page: a store could not list its spaces');
    return [];
  };
  const [bases, usage] = await Promise.all([
    services.knowledge.listKnowledgeBases().catch(failed('knowledge')),
    services.storage.usage.totals({ days: lastDays(services.now(), periodDays['30d'], services.timeZone) }).catch(failed('usage')),
  ]);
  const spaces = new Map<string, KnownSpace>();
  const entry = (spaceKey: string): KnownSpace => {
    let known = spaces.get(spaceKey);
    if (!known) spaces.set(spaceKey, (known = { knowledgeBases: 0, turns: 0 }));
    return known;
  };
  for (const base of bases) entry(base.spaceKey).knowledgeBases += 1;
  for (const row of usage) entry(row.spaceKey).turns += row.counts.turns;
  return spaces;
}
