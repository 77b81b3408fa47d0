import { matchesCall, type CallPattern } from '../common/call-pattern.js';
import type { UploadedFile } from './request-body.js';

// Every REST call the fake received, in arrival order: method, path under /api/v10, query, whether it carried the
// bot's Authorization, the JSON body (or a multipart request's payload_json), the uploaded files, and how it was
// answered. Waiting on a call is event-driven: the promise resolves when the call has been answered.

/** `held`: recorded, no answer yet (holdNext); becomes the answer's outcome, or `disconnected` if the client went away. */
export type CallOutcome = { status: number; body?: unknown } | { disconnected: true } | { held: true };

export interface DiscordCall {
  sequence: number;
  method: string;
  /** The path under /api/v10, e.g. `/channels/123/messages`. */
  path: string;
  query: Record<string, string>;
  /** `bot`: the right `Bot <token>`; `missing` or `wrong` otherwise. The token itself is never logged. */
  auth: 'bot' | 'missing' | 'wrong';
  contentType: string;
  body: unknown;
  files: UploadedFile[];
  receivedAt: number;
  /** performance.now() when the call was logged (its body read): for benchmarks, which time in the same process. */
  receivedTime: number;
  /** performance.now() when its outcome was set by `settle`, i.e. just before the answer is written. */
  answeredTime?: number;
  outcome?: CallOutcome;
}

export type CallPredicate = (call: DiscordCall) => boolean;

interface Waiter {
  pattern: CallPattern;
  predicate: CallPredicate;
  resolve(call: DiscordCall): void;
}

export class CallLog {
  readonly calls: DiscordCall[] = [];
  private readonly announced = new WeakSet<DiscordCall>();
  private waiters: Waiter[] = [];

  record(call: Omit<DiscordCall, 'sequence' | 'receivedAt' | 'receivedTime' | 'answeredTime'>): DiscordCall {
    const recorded: DiscordCall = { ...call, sequence: this.calls.length, receivedAt: Date.now(), receivedTime: performance.now() };
    this.calls.push(recorded);
    return recorded;
  }

  /** Sets the outcome and tells waiters, just before the answer is written. */
  settle(call: DiscordCall, outcome: CallOutcome): void {
    call.outcome = outcome;
    call.answeredTime = performance.now();
    this.announced.add(call);
    const matched = this.waiters.filter((waiter) => matchesCall(waiter.pattern, call.method, call.path) && waiter.predicate(call));
    this.waiters = this.waiters.filter((waiter) => !matched.includes(waiter));
    for (const waiter of matched) waiter.resolve(call);
  }

  callsOf(pattern: CallPattern): DiscordCall[] {
    return this.calls.filter((call) => matchesCall(pattern, call.method, call.path));
  }

  /** The first answered call matching, already in the log or still to come. */
  waitFor(pattern: CallPattern, predicate: CallPredicate = () => true): Promise<DiscordCall> {
    const found = this.calls.find((call) => this.announced.has(call) && matchesCall(pattern, call.method, call.path) && predicate(call));
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.waiters.push({ pattern, predicate, resolve }));
  }
}
