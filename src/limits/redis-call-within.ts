import { untilAborted } from '../shared/until-aborted.js';

// node-redis's own command timeout covers only commands not yet written to the socket: a Redis that stops answering
// mid-command (frozen, a network partition) would leave the caller waiting. A Redis that is down fails at once
// (offline queue off); this bounds the other case.

/** `work`, or an Error once `timeoutMs` passed without an answer (the command itself may still run). */
export async function redisCallWithin<Result>(work: Promise<Result>, timeoutMs: number): Promise<Result> {
  try {
    return await untilAborted(work, AbortSignal.timeout(timeoutMs));
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') throw new Error(`Redis did not answer within ${timeoutMs} ms`, { cause: error });
    throw error;
  }
}
