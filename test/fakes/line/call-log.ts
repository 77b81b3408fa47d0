import { performance } from 'node:perf_hooks';
import { matchesCall, type CallPattern } from '../common/call-pattern.js';

// Every API call the fake received, in arrival order: method, path, query, whether it carried the channel's
// access token, the retry key, the JSON body and how it was answered. Waiting on a call is event-driven: the
// promise resolves once the call has an outcome. A held call is announced when held and again when it ends, so a
// predicate on `outcome` can wait for the answer or for its client going away.

/** `held`: recorded, not answered yet (holdNext); becomes the answer, or `disconnected` if the client went away. */
export type CallOutcome = { status: number; body?: unknown; headers?: Record<string, string> } | { disconnected: true; processed: boolean } | { held: true };

export interface LineCall {
  sequence: number;
  method: string;
  /** e.g. `/v2/bot/message/reply`. */
  path: string;
  query: Record<string, string>;
  /** `channel`: `Bearer <the channel's token>`; `missing` or `wrong` otherwise. The token itself is never logged. */
  auth: 'channel' | 'missing' | 'wrong';
  /** The X-Line-Retry-Key header, when sent. */
  retryKey?: string;
  body: unknown;
  receivedAt: number;
  /** performance.now() when the call was recorded (its body read), for benchmarks. */
  receivedTime: number;
  /** performance.now() when its outcome was set, just before the answer was written (a hold: when it ended). */
  answeredTime?: number;
  outcome?: CallOutcome;
}

export type CallPredicate = (call: LineCall) => boolean;

interface Waiter {
  pattern: CallPattern;
  predicate: CallPredicate;
  resolve(call: LineCall): void;
}

export class CallLog {
  readonly calls: LineCall[] = [];
  private readonly announced = new WeakSet<LineCall>();
  private waiters: Waiter[] = [];

  record(call: Omit<LineCall, 'sequence' | 'receivedAt' | 'receivedTime' | 'answeredTime'>): LineCall {
    const recorded: LineCall = { ...call, sequence: this.calls.length, receivedAt: Date.now(), receivedTime: performance.now() };
    this.calls.push(recorded);
    return recorded;
  }

  /** Sets the outcome and tells waiters, just before the answer is written. */
  settle(call: LineCall, outcome: CallOutcome): void {
    call.outcome = outcome;
    if (!('held' in outcome)) call.answeredTime = performance.now();
    this.announced.add(call);
    const matched = this.waiters.filter((waiter) => matchesCall(waiter.pattern, call.method, call.path) && waiter.predicate(call));
    this.waiters = this.waiters.filter((waiter) => !matched.includes(waiter));
    for (const waiter of matched) waiter.resolve(call);
  }

  callsOf(pattern: CallPattern): LineCall[] {
    return this.calls.filter((call) => matchesCall(pattern, call.method, call.path));
  }

  /** The first settled call matching, already in the log or still to come. */
  waitFor(pattern: CallPattern, predicate: CallPredicate = () => true): Promise<LineCall> {
    const found = this.calls.find((call) => this.announced.has(call) && matchesCall(pattern, call.method, call.path) && predicate(call));
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ pattern, predicate, resolve }));
  }
}
