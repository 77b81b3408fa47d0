import type { Logger } from '../shared/log.js';
import type { InboundMessage } from '../shared/types.js';
import { groupLogBounds, type GroupLogEntry } from './group-log-entry.js';
import type { GroupLogStore } from './group-log-store.js';

// Catch-up's intake (docs/architecture.md, "Catch-up"): in a group whose admin turned /summary on, every message the
// bot sees goes into the group's log — addressed or not, commands aside — with its credentials masked before it is
// written. Idempotent per message (a redelivered or resumed message is logged once, by the store), and never in the
// way of the answer: a store that fails is logged and the message goes on.

export interface CatchUpRecorderOptions {
  store: Pick<GroupLogStore, 'append' | 'prune'>;
  /** The text with its credentials masked (the DLP's masker); undefined when one could not be located. */
  mask(text: string): string | undefined;
  /** A link to the message where the platform has them (Telegram supergroups, Discord). */
  linkFor(message: InboundMessage): string | undefined;
  now(): number;
  log: Logger;
}

const dayMs = 24 * 3_600_000;
/** Entries older than the retention go at most this often per space (one indexed delete). */
const pruneEveryMs = 3_600_000;
/** Spaces whose last prune is remembered; past it the map starts over (a prune again is harmless). */
const rememberedSpaces = 10_000;
/** Logged instead of a text whose credential could not be masked: the timeline keeps the message, not the secret. */
const withheldText = '[…]';

/** The text a summary reads for one message: its words, and what it carried ("[image]", "[file: a.pdf]"). */
export function loggedText(message: InboundMessage): string {
  const carried = message.attachments.map((attachment) => (attachment.kind === 'image' ? '[image]' : `[file: ${attachment.name.slice(0, 80)}]`));
  return [message.text.slice(0, groupLogBounds.textChars * 2), ...carried].filter((part) => part.trim() !== '').join(' ');
}

export class CatchUpRecorder {
  private readonly lastPrune = new Map<string, number>();

  constructor(private readonly options: CatchUpRecorderOptions) {}

  /** Logs a group message of a space that keeps `days` of them; commands and empty messages are not logged. */
  async record(message: InboundMessage, days: number): Promise<void> {
    if (message.chatKind !== 'group' || message.text.trimStart().startsWith('/')) return;
    const raw = loggedText(message);
    if (raw === '') return;
    const { store, log } = this.options;
    try {
      const entry: GroupLogEntry = {
        spaceKey: message.spaceKey,
        messageId: message.messageId,
        at: message.receivedAt.getTime(),
        speakerKey: `${message.platform}:${message.sender.id}`,
        speaker: message.sender.name,
        text: this.options.mask(raw) ?? withheldText,
      };
      const link = this.options.linkFor(message);
      await store.append(link && link.length <= groupLogBounds.linkChars ? { ...entry, link } : entry);
      await this.pruneNow(message.spaceKey, days);
    } catch (error) {
      log.warn({ space: message.spaceKey, error: String(error) }, 'catch-up log not written');
    }
  }

  private async pruneNow(spaceKey: string, days: number): Promise<void> {
    const now = this.options.now();
    if (now - (this.lastPrune.get(spaceKey) ?? 0) < pruneEveryMs) return;
    if (this.lastPrune.size >= rememberedSpaces) this.lastPrune.clear();
    this.lastPrune.set(spaceKey, now);
    const pruned = await this.options.store.prune(spaceKey, now - days * dayMs);
    if (pruned > 0) this.options.log.info({ space: spaceKey, pruned }, 'catch-up log pruned');
  }
}
