import { describe, expect, it } from 'vitest';
import { PlatformStarter, retryDelayMs } from '../../src/platform-starter.js';
import { describeStartProblem, startProblemOf } from '../../src/platform-start-problem.js';
import { PlatformStates } from '../../src/platforms.js';
import type { AdapterIdentity, PlatformAdapter } from '../../src/shared/channel.js';
import { PlatformConfigError } from '../../src/shared/platform-config-error.js';
import type { Platform } from '../../src/shared/types.js';
import { testInboundHandler } from '../support/inbound-handler.js';
import { memoryLog } from '../support/memory-log.js';

// The start of each platform on its own: a failure that is not the configuration's is retried with capped, jittered
// back-off and one log line per attempt, the state says why; a refused configuration is final. Waits are 1 ms here:
// the tests wait for the events (a start call, a callback), never for time.

const connectionRefused = (): Error =>
  new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });

/** An adapter whose start() answers with the next outcome of the list (the last one repeats). */
function scriptedAdapter(platform: Platform, outcomes: readonly (Error | AdapterIdentity)[]): PlatformAdapter & { starts: number } {
  const adapter = {
    platform,
    starts: 0,
    capabilities: { maxTextChars: 100, maxMessagesPerReply: 1, markup: 'plain' as const, typingIndicator: false, canEdit: false, sendsFiles: false },
    start: async () => {
      const outcome = outcomes[Math.min(adapter.starts, outcomes.length - 1)];
      adapter.starts += 1;
      if (outcome instanceof Error) throw outcome;
      return outcome ?? {};
    },
    stop: async () => undefined,
    responderFor: () => ({ send: async () => undefined }),
    download: () => Promise.reject(new Error('none')),
  };
  return adapter;
}

function starterFor(adapters: PlatformAdapter[], language: 'th' | 'en' = 'en') {
  const { log, records } = memoryLog('info');
  const states = new PlatformStates();
  const identified: [Platform, AdapterIdentity][] = [];
  const started: Platform[] = [];
  const refused: [Platform, PlatformConfigError][] = [];
  const startWaiters: { platform: Platform; resolve: () => void }[] = [];
  let whenRefused: () => void = () => undefined;
  const starter = new PlatformStarter({
    adapters,
    core: { inbound: testInboundHandler(), identify: (platform, identity) => identified.push([platform, identity]) },
    states,
    log,
    language,
    maxDelayMs: 4,
    firstDelayMs: 1,
    random: () => 0.5,
    onStarted: (platform) => {
      started.push(platform);
      for (const waiter of startWaiters.filter((candidate) => candidate.platform === platform)) waiter.resolve();
    },
    onConfigError: (platform, error) => {
      refused.push([platform, error]);
      whenRefused();
    },
  });
  return {
    starter,
    states,
    records,
    identified,
    started,
    refused,
    /** Resolves once `platform` has started (at once when it already has). */
    startOf: (platform: Platform) => new Promise<void>((resolve) => (started.includes(platform) ? resolve() : startWaiters.push({ platform, resolve }))),
    nextRefusal: () => new Promise<void>((resolve) => (whenRefused = resolve)),
  };
}

describe('retryDelayMs', () => {
  it('doubles from the first wait, is capped, and jitters the upper half', () => {
    expect([1, 2, 3, 4].map((failures) => retryDelayMs(failures, 1_000, 60_000, 0))).toEqual([500, 1_000, 2_000, 4_000]);
    expect([1, 2, 3, 4].map((failures) => retryDelayMs(failures, 1_000, 60_000, 0.999_999))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(retryDelayMs(40, 1_000, 60_000, 0.999_999)).toBe(60_000);
    expect(retryDelayMs(10_000, 1_000, 60_000, 0)).toBe(30_000);
  });
});

describe('PlatformStarter', () => {
  it('retries a platform that cannot connect, one line per attempt, while another starts at once; then starts it', async () => {
    const telegram = scriptedAdapter('telegram', [connectionRefused(), connectionRefused(), { username: 'saeng_bot' }]);
    const line = scriptedAdapter('line', [{}]);
    const run = starterFor([telegram, line]);
    await run.starter.start();
    // After the first attempts: LINE runs, Telegram is down with its reason (or already up again on a quick machine).
    expect(run.states.report().line).toBe('running');
    await run.startOf('telegram');
    expect(telegram.starts).toBe(3);
    expect(run.states.report()).toEqual({ telegram: 'running', line: 'running' });
    expect(run.states.downReport()).toEqual({});
    expect(run.identified).toEqual([
      ['line', {}],
      ['telegram', { username: 'saeng_bot' }],
    ]);
    const retries = run.records.filter((record) => record.msg.startsWith('telegram did not start'));
    expect(retries.map((record) => record.attempt)).toEqual([1, 2]);
    expect(retries[0]?.msg).toContain('(attempt 1: connection refused); trying again in 1 s');
    expect(retries[0]).toMatchObject({ platform: 'telegram', reason: 'connection refused' });
    expect(run.records.some((record) => record.msg.startsWith('telegram started after 3 attempts'))).toBe(true);
  });

  it('names the platform down with its reason and next attempt until it starts', async () => {
    const discord = scriptedAdapter('discord', [Object.assign(new Error('Service Unavailable'), { status: 503 })]);
    const run = starterFor([discord], 'th');
    await run.starter.start();
    run.starter.stop();
    expect(run.states.report()).toEqual({ discord: 'retrying' });
    expect(run.states.started('discord')).toBe(false);
    const problem = run.states.downReport().discord;
    expect(problem?.reason).toEqual({ th: 'เซิร์ฟเวอร์ตอบ HTTP 503', en: 'the server answered HTTP 503' });
    expect(problem?.nextAttemptAt).toBeInstanceOf(Date);
    expect(run.records[0]?.msg).toBe('discord เริ่มไม่สำเร็จ (ครั้งที่ 1: เซิร์ฟเวอร์ตอบ HTTP 503) จะลองใหม่ในอีก 1 วินาที ระหว่างนี้แพลตฟอร์มอื่นและคอนโซลยังทำงานตามปกติ');
  });

  it('a refused configuration is final: not tried again, the caller is told, the state says which setting', async () => {
    const refusal = new PlatformConfigError('TELEGRAM_BOT_TOKEN', { th: 'TELEGRAM_BOT_TOKEN ถูกปฏิเสธ', en: 'TELEGRAM_BOT_TOKEN was refused' });
    const telegram = scriptedAdapter('telegram', [refusal]);
    const run = starterFor([telegram]);
    const refused = run.nextRefusal();
    await run.starter.start();
    await refused;
    expect(telegram.starts).toBe(1);
    expect(run.refused).toEqual([['telegram', refusal]]);
    expect(run.states.report()).toEqual({ telegram: 'failed' });
    expect(run.states.downReport().telegram).toEqual({ reason: { th: 'ตั้งค่า TELEGRAM_BOT_TOKEN ไม่ถูกต้อง', en: 'TELEGRAM_BOT_TOKEN was refused' } });
    expect(refusal.describe('th')).toBe('TELEGRAM_BOT_TOKEN ถูกปฏิเสธ');
  });

  it('stop() ends the retries', async () => {
    const line = scriptedAdapter('line', [connectionRefused()]);
    const run = starterFor([line]);
    await run.starter.start();
    run.starter.stop();
    const attemptsAtStop = line.starts;
    // The wait in progress ends at once and no attempt follows; one more turn of the event loop to be sure.
    await new Promise((resolve) => setImmediate(resolve));
    expect(line.starts).toBe(attemptsAtStop);
  });
});

describe('startProblemOf', () => {
  it('reads the reason from codes and statuses along the cause chain, never from the message', () => {
    expect(startProblemOf(connectionRefused())).toEqual({ kind: 'refused', detail: 'ECONNREFUSED' });
    const telegrafLike = Object.assign(new Error('request to https://api.telegram.org/bot123:SECRET/getMe failed, reason: getaddrinfo ENOTFOUND'), {
      code: 'ENOTFOUND',
    });
    expect(startProblemOf(telegrafLike)).toEqual({ kind: 'dns', detail: 'ENOTFOUND' });
    expect(startProblemOf(Object.assign(new Error('Bad Gateway'), { code: 502 }))).toEqual({ kind: 'http', detail: '502' });
    const unknown = startProblemOf(new RangeError('token 123:SECRET is odd'));
    expect(unknown).toEqual({ kind: 'other', detail: 'RangeError' });
    expect(describeStartProblem(unknown, 'en')).toBe('error RangeError');
    expect(describeStartProblem({ kind: 'other' }, 'th')).toBe('ข้อผิดพลาด');
    expect(startProblemOf('a string')).toEqual({ kind: 'other' });
  });
});
