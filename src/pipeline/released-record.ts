import type { Keyv } from 'keyv';
import { releasedLimits, runsToRemember } from '../dlp/released-fragments.js';

// Per conversation, what earlier answers released that could start a credential (src/dlp/released-fragments.ts): a
// few short runs in the shared cache store (every process reads the same), for a day. Fragments already sent, never a
// whole answer; the next answer is scanned joined onto them (Outbound).

const ttlMs = 24 * 3600 * 1000;

export class ReleasedRecord {
  constructor(private readonly store: Keyv) {}

  /** The runs remembered for the conversation; none when the store cannot be read (the ordinary scan still runs). */
  async earlier(conversationKey: string): Promise<string[]> {
    const stored: unknown = await this.store.get(key(conversationKey)).catch(() => undefined);
    return Array.isArray(stored) ? stored.filter((run): run is string => typeof run === 'string' && run.length <= releasedLimits.runChars) : [];
  }

  /** After `text` was sent: its runs that may start a credential join the record (the newest kept). */
  async remember(conversationKey: string, text: string): Promise<void> {
    const runs = runsToRemember(text);
    if (runs.length === 0) return;
    const kept = [...(await this.earlier(conversationKey)), ...runs].slice(-releasedLimits.runs);
    await this.store.set(key(conversationKey), kept, ttlMs);
  }
}

function key(conversationKey: string): string {
  return `released:${conversationKey}`;
}
