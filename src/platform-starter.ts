import type { PlatformProblem, PlatformStates } from './platforms.js';
import { describeStartProblem, startProblemOf } from './platform-start-problem.js';
import type { AdapterIdentity, InboundHandler, PlatformAdapter } from './shared/channel.js';
import { describeError } from './shared/describe-error.js';
import { say, type Localized } from './shared/i18n.js';
import type { Logger } from './shared/log.js';
import { PlatformConfigError } from './shared/platform-config-error.js';
import type { Language, Platform } from './shared/types.js';

// Starts every platform on its own and keeps trying the ones that cannot start yet (the network not up at boot, the
// platform briefly down), with capped, jittered exponential back-off and one log line per attempt, while the others,
// the console and the HTTP server work. Only a refused configuration (PlatformConfigError) is final: the caller stops
// the process with its line.

export interface PlatformStarterOptions {
  adapters: readonly PlatformAdapter[];
  core: { inbound: InboundHandler; identify(platform: Platform, identity: AdapterIdentity): void };
  states: PlatformStates;
  log: Logger;
  language: Language;
  /** PLATFORM_RETRY_MAX_SECONDS, in ms: the longest wait between two attempts. */
  maxDelayMs: number;
  /** The wait after the first failure (doubled after each further one). */
  firstDelayMs?: number;
  /** [0, 1): the jitter's source (tests pin it). */
  random?: () => number;
  /** The platform's start finished (at once or after retries): its stored messages may be answered now. */
  onStarted(platform: Platform): void;
  /** Its configuration was refused: not tried again. */
  onConfigError(platform: Platform, error: PlatformConfigError): void;
}

const texts = {
  retry: {
    th: '{platform} เริ่มไม่สำเร็จ (ครั้งที่ {attempt}: {reason}) จะลองใหม่ในอีก {seconds} วินาที ระหว่างนี้แพลตฟอร์มอื่นและคอนโซลยังทำงานตามปกติ',
    en: '{platform} did not start (attempt {attempt}: {reason}); trying again in {seconds} s, the other platforms and the console keep working',
  },
  startedLate: {
    th: '{platform} เริ่มทำงานแล้ว หลังลอง {attempt} ครั้ง ข้อความที่รอไว้จะได้รับคำตอบตามลำดับ',
    en: '{platform} started after {attempt} attempts: the messages it kept waiting are answered in order',
  },
  configReason: { th: 'ตั้งค่า {variable} ไม่ถูกต้อง', en: '{variable} was refused' },
} satisfies Record<string, Localized>;

/** The wait before attempt `failures + 1`: doubling from `first`, capped at `max`, the upper half jittered. */
export function retryDelayMs(failures: number, first: number, max: number, random: number): number {
  const full = Math.min(max, first * 2 ** Math.min(failures - 1, 30));
  return Math.round(full / 2 + (full / 2) * random);
}

export class PlatformStarter {
  private stopped = false;
  private readonly wakeSleepers = new Set<() => void>();

  constructor(private readonly options: PlatformStarterOptions) {}

  /** Starts every platform; resolves once each one's first attempt has settled (started, retrying, or refused). */
  start(): Promise<void> {
    const firstAttempts = this.options.adapters.map(
      (adapter) =>
        new Promise<void>((settled) => {
          this.options.states.set(adapter.platform, 'starting');
          void this.keepStarting(adapter, settled);
        }),
    );
    return Promise.all(firstAttempts).then(() => undefined);
  }

  /** No further attempt; a wait for one ends now (an attempt under way is left to finish). */
  stop(): void {
    this.stopped = true;
    for (const wake of this.wakeSleepers) wake();
    this.wakeSleepers.clear();
  }

  private async keepStarting(adapter: PlatformAdapter, firstSettled: () => void): Promise<void> {
    const { core, states, log, language } = this.options;
    const platform = adapter.platform;
    for (let attempt = 1; !this.stopped; attempt += 1) {
      try {
        const identity = await adapter.start(core.inbound);
        if (this.stopped) return firstSettled();
        core.identify(platform, identity);
        states.set(platform, 'running', adapter.runningState?.bind(adapter));
        if (attempt > 1) log.info({ platform, attempt }, say(texts.startedLate, language, { platform, attempt }));
        firstSettled();
        this.options.onStarted(platform);
        return;
      } catch (error) {
        if (error instanceof PlatformConfigError) {
          const variable = { variable: error.variable };
          states.down(platform, 'failed', { reason: { th: say(texts.configReason, 'th', variable), en: say(texts.configReason, 'en', variable) } });
          firstSettled();
          this.options.onConfigError(platform, error);
          return;
        }
        const delayMs = retryDelayMs(attempt, this.options.firstDelayMs ?? 1_000, this.options.maxDelayMs, (this.options.random ?? Math.random)());
        const problem = startProblemOf(error);
        const down: PlatformProblem = {
          reason: { th: describeStartProblem(problem, 'th'), en: describeStartProblem(problem, 'en') },
          nextAttemptAt: new Date(Date.now() + delayMs),
        };
        states.down(platform, 'retrying', down);
        const seconds = Math.max(1, Math.round(delayMs / 1000));
        log.warn(
          { platform, attempt, reason: down.reason.en, retryInSeconds: seconds, error: describeError(error) },
          say(texts.retry, language, { platform, attempt, reason: describeStartProblem(problem, language), seconds }),
        );
        firstSettled();
        await this.sleep(delayMs);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.wakeSleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakeSleepers.add(wake);
    });
  }
}
