import type { Logger } from './shared/log.js';
import { describeError } from './shared/describe-error.js';

// The last resort (docs/architecture.md, "Processes and operations"): an exception or rejection nothing caught is
// logged through the redacting logger and ends the process, which pm2 starts again. Nothing accepted is lost by it:
// every message was stored before it was acknowledged, and the inbound queue resumes it.
//
// pm2 counts an exit as an "unstable restart" when the process ran less than `min_uptime` (pm2 7: lib/God.js
// handleExit), and stops the app for good after `max_restarts` of them — right for a bot that cannot start, wrong
// for one that crashed after it started. So after start-up the exit waits until the process has been up
// `min_uptime` (pm2 gives it `pm_uptime`, the spawn time, and `min_uptime` in its environment): then pm2 never
// counts it, and restarts it with back-off. A crash during start-up exits 1 at once, like any refusal.

/** A crash after start-up (EX_SOFTWARE of sysexits.h), told apart from a start-up refusal (1) in pm2's exit_code. */
export const crashExitCode = 70;

/** The longest wait for min_uptime, whatever the environment says. */
const maxUptimeWaitMs = 60_000;

/** The longest wait for the strike of the messages in flight to be stored (Redis; SQLite writes it at once). */
const strikeWaitMs = 2_000;

export interface LastResortOptions {
  log: Logger;
  /** Whether start-up is over (the bot told pm2 it is ready). */
  started(): boolean;
  /** pm2's `pm_uptime` and `min_uptime`, read from here (process.env). */
  environment: NodeJS.ProcessEnv;
  exit(code: number): void;
  /**
   * Gives the messages in flight a strike (InboundWorker.markInFlightCrashed), so a message that crashed the process
   * is set aside on its next start instead of crashing it again; waited for at most `strikeWaitMs` (Redis).
   */
  strikeInFlight?: () => void | Promise<void>;
  now?: () => number;
  /** process, or a stand-in in tests. */
  events?: Pick<NodeJS.Process, 'on'>;
}

/** How long to wait before exiting so pm2 does not count the exit as a failed start; 0 outside pm2. */
export function waitForStableUptime(environment: NodeJS.ProcessEnv, now: number): number {
  const spawnedAt = Number(environment.pm_uptime);
  const minUptime = Number(environment.min_uptime);
  if (!Number.isFinite(spawnedAt) || !Number.isFinite(minUptime) || spawnedAt <= 0 || minUptime <= 0) return 0;
  // A second to spare: pm2 reads its own clock when it sees the exit.
  return Math.min(maxUptimeWaitMs, Math.max(0, spawnedAt + minUptime + 1_000 - now));
}

/** The strike of the messages in flight, stored (synchronously with SQLite) or given up after strikeWaitMs; never rejects. */
function strikeInFlight(options: LastResortOptions): Promise<void> {
  try {
    const stored = options.strikeInFlight?.();
    if (!(stored instanceof Promise)) return Promise.resolve();
    return Promise.race([stored, new Promise<void>((resolve) => setTimeout(resolve, strikeWaitMs).unref())]).catch(() => undefined);
  } catch {
    return Promise.resolve();
  }
}

export function installLastResort(options: LastResortOptions): void {
  const events = options.events ?? process;
  const now = options.now ?? Date.now;
  let exiting = false;
  const crash = (kind: 'exception' | 'rejection', error: unknown): void => {
    const started = options.started();
    options.log.fatal(
      { kind, error: describeError(error), stack: error instanceof Error ? error.stack : undefined, started, exiting },
      'uncaught error: the bot exits and pm2 starts it again',
    );
    if (exiting) return;
    exiting = true;
    const stored = strikeInFlight(options);
    if (!started) return void stored.then(() => options.exit(1));
    const wait = waitForStableUptime(options.environment, now());
    if (wait > 0) options.log.fatal({ waitMs: wait }, 'waiting for min_uptime before exiting, so pm2 restarts the bot instead of stopping it');
    const waited = new Promise<void>((resolve) => (wait === 0 ? resolve() : setTimeout(resolve, wait)));
    void Promise.all([stored, waited]).then(() => options.exit(crashExitCode));
  };
  events.on('uncaughtException', (error) => crash('exception', error));
  events.on('unhandledRejection', (reason) => crash('rejection', reason));
}
