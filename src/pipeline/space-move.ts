import type Keyv from 'keyv';
import type { KnowledgeStore } from '../knowledge/index.js';
import type { SpaceMove } from '../shared/channel.js';
import type { Logger } from '../shared/log.js';
import type { ReminderStore } from '../reminders/reminder-store.js';
import type { GroupLogStore } from '../catchup/group-log-store.js';
import type { SpaceSettingsStore } from '../settings/space-settings-store.js';

// A space's new platform id (a Telegram group upgraded to a supergroup gets a new chat id): what is kept under the
// old key moves, so the group keeps its knowledge bases, their bindings, its /settings, its reminders, its catch-up log and its conversation. Both Telegram's
// service messages (one in the old chat, one in the new) trigger it: the second finds nothing left to move.

export interface SpaceMoveStores {
  /** The history namespace: one entry per conversation key. */
  history: Keyv;
  knowledge: Pick<KnowledgeStore, 'moveSpace' | 'listKnowledgeBases'>;
  /** The space's /settings (absent: nothing to move). */
  settings?: Pick<SpaceSettingsStore, 'move'>;
  /** The space's reminders (absent: nothing to move); their chat is the new one when they are sent. */
  reminders?: Pick<ReminderStore, 'moveSpace'>;
  /** The space's catch-up log (absent: nothing to move). */
  groupLog?: Pick<GroupLogStore, 'moveSpace'>;
}

export async function moveSpace(stores: SpaceMoveStores & { log: Logger }, move: SpaceMove): Promise<void> {
  if (move.from === move.to) return;
  const knowledge = await stores.knowledge.moveSpace(move.from, move.to);
  const history = await moveHistory(stores.history, move.from, move.to);
  const settings = (await stores.settings?.move(move.from, move.to)) ?? false;
  await stores.reminders?.moveSpace(move.from, move.to);
  await stores.groupLog?.moveSpace(move.from, move.to);
  if (knowledge.knowledgeBases + knowledge.bindings === 0 && !history && !settings) return;
  stores.log.info(
    {
      from: move.from,
      to: move.to,
      knowledgeBases: knowledge.knowledgeBases,
      bindings: knowledge.bindings,
      history,
      settings,
      keptBehind: knowledge.keptBehind.length,
    },
    'space moved to its new id',
  );
  if (knowledge.keptBehind.length > 0) {
    stores.log.warn(
      // Knowledge-base names are users' text: how many, not which (/kb list in the old space shows them).
      { from: move.from, to: move.to, count: knowledge.keptBehind.length },
      'knowledge bases left under the old id: the new space has ones of the same name',
    );
  }
}

/**
 * The conversation whose key is the space key (a basic group has no topics, so that is the only one). A history
 * the new key already has is newer and wins.
 */
async function moveHistory(history: Keyv, from: string, to: string): Promise<boolean> {
  const old: unknown = await history.get(from);
  if (old === undefined) return false;
  if ((await history.get(to)) === undefined) await history.set(to, old);
  await history.delete(from);
  return true;
}
