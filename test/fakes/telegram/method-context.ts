import type { Params } from './params.js';
import type { FakeTelegramState } from './state.js';
import type { UpdateQueue } from './update-queue.js';

// What a method handler gets: the call's parameters, the fake's state and queue, and a signal that fires when the
// client goes away (so a held long poll can let go).

export interface MethodContext {
  state: FakeTelegramState;
  updates: UpdateQueue;
  signal: AbortSignal;
}

export type MethodHandler = (params: Params, context: MethodContext) => unknown;
