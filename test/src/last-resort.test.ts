import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { crashExitCode, waitForStableUptime } from '../../src/last-resort.js';

// The last-resort handler in a real child process: an uncaught exception or rejection is logged through the
// redacting logger and the process exits — 1 during start-up (pm2 counts it as a failed start), 70 after it, and
// then only once pm2's min_uptime has passed since pm2 spawned it (pm_uptime), so pm2 always restarts it.

const child = path.resolve(import.meta.dirname, '../support/last-resort-child.ts');
const secret = 'sk-proj-Zq8Xw2LmNc4Vb7Rt1Ys5Ku9Ha3Jd6Fg0Pe2Mi4Lo8Nb';

function runChild(environment: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const process_ = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), child], {
      env: { PATH: process.env.PATH ?? '', LAST_RESORT_SECRET: secret, ...environment },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    process_.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    process_.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    process_.once('close', (code) => resolve({ code, stderr, stdout }));
  });
}

const lines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('last resort', () => {
  it('waits only for what is left of min_uptime since pm2 spawned the process, and never outside pm2', () => {
    expect(waitForStableUptime({ pm_uptime: '1000', min_uptime: '10000' }, 4_000)).toBe(8_000);
    expect(waitForStableUptime({ pm_uptime: '1000', min_uptime: '10000' }, 20_000)).toBe(0);
    expect(waitForStableUptime({}, 4_000)).toBe(0);
    expect(waitForStableUptime({ pm_uptime: 'x', min_uptime: '10000' }, 4_000)).toBe(0);
    expect(waitForStableUptime({ pm_uptime: '1000', min_uptime: '999999999' }, 1_000)).toBe(60_000);
  });

  it('after start-up: logs the exception redacted and exits 70 once min_uptime has passed', async () => {
    const { code, stderr } = await runChild({ LAST_RESORT_STARTED: '1', pm_uptime: String(Date.now()), min_uptime: '1500' });
    expect(code).toBe(crashExitCode);
    expect(stderr).not.toContain(secret);
    const logged = lines(stderr);
    expect(logged[0]).toMatchObject({ level: 60, msg: 'uncaught error: the bot exits and pm2 starts it again', kind: 'exception', started: true });
    expect(String(logged[0]?.error)).toContain('[redacted:');
    expect(logged[1]).toMatchObject({ msg: 'waiting for min_uptime before exiting, so pm2 restarts the bot instead of stopping it' });
    expect(Number(logged[1]?.waitMs)).toBeGreaterThan(0);
  });

  it('an unhandled rejection after start-up is the same crash; outside pm2 it exits at once', async () => {
    const { code, stderr } = await runChild({ LAST_RESORT_STARTED: '1', LAST_RESORT_FAILURE: 'rejection' });
    expect(code).toBe(crashExitCode);
    expect(lines(stderr)).toMatchObject([{ level: 60, kind: 'rejection' }]);
    expect(stderr).not.toContain(secret);
  });

  it('gives the messages in flight their strike before exiting, and does not wait for ever on a store that never answers', async () => {
    const stored = await runChild({ LAST_RESORT_STARTED: '1', LAST_RESORT_STRIKE: 'sync' });
    expect(stored.code).toBe(crashExitCode);
    expect(stored.stdout).toBe('strike stored\n');
    const pending = await runChild({ LAST_RESORT_STARTED: '1', LAST_RESORT_STRIKE: 'never' });
    expect(pending.code).toBe(crashExitCode);
    expect(pending.stdout).toBe('strike pending\n');
  });

  it('during start-up: exits 1 at once, a failed start for pm2', async () => {
    const { code, stderr } = await runChild({ pm_uptime: String(Date.now()), min_uptime: '600000' });
    expect(code).toBe(1);
    expect(lines(stderr)).toMatchObject([{ level: 60, started: false }]);
  });
});
