import type { InboundMessage } from '../shared/types.js';

/** The sender as ADMIN_IDS names them, `platform:id` (src/config.ts checks the id's form per platform). */
export function adminIdOf(message: Pick<InboundMessage, 'platform' | 'sender'>): string {
  return `${message.platform}:${message.sender.id}`;
}
