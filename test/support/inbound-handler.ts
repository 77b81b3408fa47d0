import type { AcceptResult, InboundHandler } from '../../src/shared/channel.js';
import type { InboundMessage } from '../../src/shared/types.js';

/** An InboundHandler for adapter tests that need no core: `accept` as given (default: stored), the rest inert. */
export function testInboundHandler(accept: (message: InboundMessage) => Promise<AcceptResult> = async () => 'stored'): InboundHandler {
  const records = new Map<string, string | undefined>();
  return {
    accept,
    moveSpace: async () => undefined,
    knowledgeBaseNames: async () => [],
    rememberRecord: async (key, _ttlSeconds, value) => void records.set(key, value),
    hasRecord: async (key) => records.has(key),
    readRecord: async (key) => records.get(key),
  };
}
