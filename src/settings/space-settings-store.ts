import type { Keyv } from 'keyv';
import { PerKeyChain } from '../shared/per-key-chain.js';
import { isDefault, parseSpaceSettings, type SpaceSettings } from './space-settings.js';

// Each space's /settings, one JSON value per space key in the `settings` namespace of the shared store (state.db, or
// Redis with REDIS_URL: every process reads the same), kept without a TTL and backed up with state.db. Read on every
// message (one small read), so a change made in one process holds at once in all of them.

export class SpaceSettingsStore {
  /** Changes of one space in this process in order; two processes changing one space at once: the last one wins. */
  private readonly changes = new PerKeyChain();

  constructor(private readonly store: Keyv) {}

  /** The space's settings ({} when none). Rejects when the store cannot be read: the caller decides. */
  async get(spaceKey: string): Promise<SpaceSettings> {
    return parseSpaceSettings(await this.store.get(spaceKey));
  }

  /** Applies `change` to the stored settings and stores the result (none at all when nothing is left). */
  async update(spaceKey: string, change: (current: SpaceSettings) => SpaceSettings): Promise<SpaceSettings> {
    return this.changes.run(spaceKey, async () => {
      const next = parseSpaceSettings(change(await this.get(spaceKey)));
      if (isDefault(next)) await this.store.delete(spaceKey);
      else await this.store.set(spaceKey, next);
      return next;
    });
  }

  /**
   * A space's new id (a Telegram group upgraded to a supergroup): its settings move, and a conversation they name
   * moves with them. Settings the new id already has are newer and win. True when something moved.
   */
  async move(from: string, to: string): Promise<boolean> {
    const old = await this.get(from);
    if (isDefault(old)) return false;
    if (isDefault(await this.get(to))) {
      const conversation = old.triggerConversation;
      const moved = conversation && (conversation === from || conversation.startsWith(`${from}:`)) ? `${to}${conversation.slice(from.length)}` : conversation;
      await this.store.set(to, moved ? { ...old, triggerConversation: moved } : old);
    }
    await this.store.delete(from);
    return true;
  }
}
