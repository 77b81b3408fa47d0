import { matchesCall, type CallPattern } from './call-pattern.js';

// Failures a test switches on for the next matching calls of a fake (Discord, LINE): an answer of its choosing
// (`Failure`: status, body, headers); a lost connection before the platform did anything; a lost answer after it did
// the work (a message went out, a token is spent, but the client sees a dropped socket, as when a response times
// out); or a call held unanswered (a send in flight when the bot is killed).

interface Switched<Value> {
  pattern: CallPattern;
  value: Value;
  left: number;
}

function take<Value>(queue: Switched<Value>[], method: string, path: string): Value | undefined {
  const found = queue.find((entry) => entry.left > 0 && matchesCall(entry.pattern, method, path));
  if (!found) return undefined;
  found.left -= 1;
  if (found.left === 0) queue.splice(queue.indexOf(found), 1);
  return found.value;
}

export class SwitchedFailures<Failure> {
  private readonly answers: Switched<Failure>[] = [];
  private readonly disconnects: Switched<true>[] = [];
  private readonly lostAnswers: Switched<true>[] = [];
  private readonly holds: { pattern: CallPattern; skip: number }[] = [];
  private readonly held = new Set<() => void>();

  failNext(pattern: CallPattern, failure: Failure, times = 1): void {
    this.answers.push({ pattern, value: failure, left: times });
  }

  disconnectNext(pattern: CallPattern, times = 1): void {
    this.disconnects.push({ pattern, value: true, left: times });
  }

  loseResponseNext(pattern: CallPattern, times = 1): void {
    this.lostAnswers.push({ pattern, value: true, left: times });
  }

  /** After `skip` more matching calls pass, the next one gets no answer until releaseHeld() or its client goes away. */
  holdNext(pattern: CallPattern, skip = 0): void {
    this.holds.push({ pattern, skip });
  }

  /** Whether this call is the one to hold (counting down the calls to let pass first). */
  takeHold(method: string, path: string): boolean {
    const found = this.holds.find((entry) => matchesCall(entry.pattern, method, path));
    if (!found) return false;
    if (found.skip > 0) {
      found.skip -= 1;
      return false;
    }
    this.holds.splice(this.holds.indexOf(found), 1);
    return true;
  }

  /** Resolves on releaseHeld() (true) or when `signal` aborts (false). */
  waitForRelease(signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const release = (): void => {
        this.held.delete(release);
        resolve(!signal.aborted);
      };
      this.held.add(release);
      signal.addEventListener('abort', release, { once: true });
    });
  }

  releaseHeld(): void {
    for (const release of [...this.held]) release();
  }

  takeFailure(method: string, path: string): Failure | undefined {
    return take(this.answers, method, path);
  }

  takeDisconnect(method: string, path: string): boolean {
    return take(this.disconnects, method, path) === true;
  }

  takeLostAnswer(method: string, path: string): boolean {
    return take(this.lostAnswers, method, path) === true;
  }
}
