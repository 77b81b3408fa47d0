import type { ApiErrorBody } from './api-error.js';
import type { Params } from './params.js';

// Every Bot API call the fake received, in arrival order, with its parsed parameters (files as { name, bytes })
// and, once answered, how it ended. Waiting on a call is event-driven: the promise resolves when it is logged.

export type CallOutcome = { ok: true; result: unknown } | { ok: false; error: ApiErrorBody } | { ok: false; disconnected: true };

export interface TelegramCall {
  /** 0, 1, 2, … in the order the fake received the calls. */
  sequence: number;
  method: string;
  params: Params;
  receivedAt: number;
  /** performance.now() when the call was logged (its body read): for benchmarks, which time in the same process. */
  receivedTime: number;
  /** performance.now() when its outcome was set, i.e. just before the answer is written (undefined until then). */
  answeredTime?: number;
  /** Undefined while the call is still held (a long poll) or being answered. */
  outcome?: CallOutcome;
}

export type CallPredicate = (call: TelegramCall) => boolean;

interface Waiter {
  method: string;
  predicate: CallPredicate;
  resolve(call: TelegramCall): void;
}

export class CallLog {
  readonly calls: TelegramCall[] = [];
  private readonly announced = new WeakSet<TelegramCall>();
  private waiters: Waiter[] = [];

  record(method: string, params: Params): TelegramCall {
    const call: TelegramCall = { sequence: this.calls.length, method, params, receivedAt: Date.now(), receivedTime: performance.now() };
    // An own, enumerable accessor: setting the outcome (server.ts does, right before writing the answer) stamps
    // answeredTime, and the call still compares and spreads as a plain object.
    let outcome: CallOutcome | undefined;
    Object.defineProperty(call, 'outcome', {
      enumerable: true,
      get: () => outcome,
      set: (value: CallOutcome | undefined) => {
        outcome = value;
        call.answeredTime = performance.now();
      },
    });
    this.calls.push(call);
    return call;
  }

  /** Tells waiters about a call, once its immediate effects are in the fake's state (a long poll: once held). */
  announce(call: TelegramCall): void {
    this.announced.add(call);
    const matched = this.waiters.filter((waiter) => waiter.method === call.method && waiter.predicate(call));
    this.waiters = this.waiters.filter((waiter) => !matched.includes(waiter));
    for (const waiter of matched) waiter.resolve(call);
  }

  callsOf(method: string): TelegramCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  /** The first call of `method` matching `predicate`, already announced or still to come. */
  waitFor(method: string, predicate: CallPredicate = () => true): Promise<TelegramCall> {
    const found = this.calls.find((call) => call.method === method && this.announced.has(call) && predicate(call));
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ method, predicate, resolve }));
  }
}
