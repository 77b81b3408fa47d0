import type { Keyv } from 'keyv';
import type { InboundMessage } from '../shared/types.js';

/** Persisted with a TTL, so a re-delivered message (webhook retry, reconnect) is never answered twice. */
export class DuplicateDeliveries {
  private readonly checking = new Set<string>();

  constructor(
    private readonly store: Keyv,
    private readonly ttlMs: number,
  ) {}

  /** True when this message was seen before; the first call for a message records it. */
  async seen(message: InboundMessage): Promise<boolean> {
    const key = `${message.platform}:${message.messageId}`;
    // Checked synchronously first: two deliveries arriving together must not both pass the async lookup.
    if (this.checking.has(key)) return true;
    this.checking.add(key);
    try {
      if (await this.store.get(key)) return true;
      await this.store.set(key, 1, this.ttlMs);
      return false;
    } finally {
      this.checking.delete(key);
    }
  }
}
