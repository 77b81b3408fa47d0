import Keyv from 'keyv';
import type { SpaceMoveStores } from '../../src/pipeline/space-move.js';

/** The stores an InboundWorker test does not look at: an empty history and knowledge, records in memory. */
export function inertWorkerStores(): { spaces: SpaceMoveStores; records: Keyv } {
  return {
    spaces: {
      history: new Keyv(),
      knowledge: { moveSpace: async () => ({ knowledgeBases: 0, bindings: 0, keptBehind: [] }), listKnowledgeBases: async () => [] },
    },
    records: new Keyv(),
  };
}
