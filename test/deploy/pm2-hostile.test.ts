import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer } from '../fakes/model-server.js';
import { freePort } from '../support/free-port.js';
import { rawRequest } from '../support/raw-http.js';
import { createPm2Scratch, poll, type Pm2App, type Pm2Scratch } from './pm2-harness.js';

// The bot under the project's own pm2 ecosystem against what used to stop it for good: request lines new URL()
// threw on (three in 10 s left it stopped by max_restarts), and a crash soon after start-up, which the last-resort
// handler (src/last-resort.ts) turns into an exit pm2 never counts as a failed start.

const root = path.resolve(import.meta.dirname, '../..');
let scratch: Pm2Scratch;
let botPort: number;

beforeAll(async () => {
  scratch = await createPm2Scratch();
  botPort = await freePort();
}, 60_000);
afterAll(async () => {
  await scratch?.dispose();
});

const app = async (name: string): Promise<Pm2App | undefined> => (await scratch.apps()).find((entry) => entry.name === name);
const healthz = async (): Promise<number> => (await fetch(`http://127.0.0.1:${botPort}/healthz`)).status;

describe('pm2 and a hostile network', { timeout: 120_000 }, () => {
  it('answers the request lines that used to kill it (400, or 404 for a path it lacks), and stays up (no restart)', async () => {
    const model = await startFakeModelServer({ modelId: 'test-model' });
    try {
      scratch.writeDotEnv({ MODEL_SERVER: 'none', MODEL_BASE_URL: model.url, MODEL_NAME: 'test-model', DATA_DIR: './data', HTTP_PORT: String(botPort) });
      await scratch.pm2('start', 'ecosystem.config.cjs');
      const before = await poll('saeng online', async () => {
        const found = await app('saeng');
        return found?.pm2_env.status === 'online' && found.pid > 0 ? found : undefined;
      });
      for (let round = 0; round < 3; round += 1) {
        // `/\[` is a path, just not one the bot has.
        for (const [target, status] of [
          ['//[', 400],
          ['http://[/', 400],
          ['/\\[', 404],
        ] as const) {
          const answer = await rawRequest(botPort, [`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`]);
          expect(answer.status, target).toBe(status);
        }
      }
      expect(await healthz()).toBe(200);
      const after = await app('saeng');
      expect(after?.pid).toBe(before.pid);
      expect(after?.pm2_env.restart_time).toBe(0);
      await scratch.pm2('delete', 'all');
    } finally {
      await model.close();
    }
  });

  it('restarts a bot that crashes right after start-up again and again, where pm2 would stop a failing start', async () => {
    // The ecosystem's own bot app (min_uptime, max_restarts, back-off), running a child that installs the
    // last-resort handler and throws at once after its start-up.
    writeFileSync(
      path.join(scratch.directory, 'crash.config.cjs'),
      `const { apps } = require('./ecosystem.config.cjs');
const bot = apps.find((entry) => entry.name === 'saeng');
module.exports = { apps: [{ ...bot, name: 'saeng-crash', wait_ready: false, script: ${JSON.stringify(path.join(root, 'test/support/last-resort-child.ts'))},
  node_args: ['--import', 'tsx'], env: { ...bot.env, LAST_RESORT_STARTED: '1' } }] };
`,
    );
    scratch.writeDotEnv({ MODEL_SERVER: 'none' });
    await scratch.pm2('start', 'crash.config.cjs');
    // max_restarts is 3: a failing start would be stopped by the third exit inside the first 30 s.
    const restarted = await poll(
      'the third start after two crashes',
      async () => {
        const found = await app('saeng-crash');
        return found && found.pm2_env.restart_time >= 2 && found.pm2_env.status === 'online' ? found : undefined;
      },
      600,
    );
    expect(restarted.pm2_env.unstable_restarts).toBe(0);
    expect(restarted.pm2_env.exit_code).toBe(70);
    expect(scratch.daemonLog()).not.toContain('too many unstable restarts');
    const errors = readFileSync(path.join(scratch.directory, 'logs/saeng.err.log'), 'utf8');
    expect(errors.match(/uncaught error: the bot exits and pm2 starts it again/g)?.length).toBeGreaterThanOrEqual(2);
    await scratch.pm2('delete', 'all');
  });
});
