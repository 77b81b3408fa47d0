import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// The project's ecosystem.config.cjs under a real pm2 with its own PM2_HOME, in a scratch directory holding a fresh
// build (dist/), the package.json (ESM) and a link to node_modules: no developer's .env, logs or pm2 daemon are used.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const pm2Bin = path.join(root, 'node_modules/.bin/pm2');
export const fakeLlamaServer = path.join(root, 'test/deploy/fake-llama-server.mjs');

export interface Pm2App {
  name: string;
  pid: number;
  pm2_env: { status: string; restart_time: number; unstable_restarts: number; exit_code?: number };
}

export interface Pm2Scratch {
  directory: string;
  writeDotEnv(settings: Record<string, string>): void;
  pm2(...arguments_: string[]): Promise<string>;
  /** pm2 with a way to stop the client early (`pm2 start` waits for wait_ready up to listen_timeout). */
  pm2Until(signal: AbortSignal, ...arguments_: string[]): Promise<string>;
  /** The pm2 daemon's own log (PM2_HOME/pm2.log): restarts, exits, "too many unstable restarts". */
  daemonLog(): string;
  apps(): Promise<Pm2App[]>;
  /** pm2 kill (its daemon and every app) and the scratch directory removed; safe to call twice. */
  dispose(): Promise<void>;
}

/** Builds src/ into the scratch directory (tsc without type checking, like `npm run build`). */
export async function createPm2Scratch(): Promise<Pm2Scratch> {
  const directory = mkdtempSync(path.join(tmpdir(), 'saeng-pm2-'));
  copyFileSync(path.join(root, 'ecosystem.config.cjs'), path.join(directory, 'ecosystem.config.cjs'));
  copyFileSync(path.join(root, 'package.json'), path.join(directory, 'package.json'));
  symlinkSync(path.join(root, 'node_modules'), path.join(directory, 'node_modules'));
  await run(process.execPath, [
    path.join(root, 'node_modules/typescript/bin/tsc'),
    '-p',
    path.join(root, 'tsconfig.build.json'),
    '--outDir',
    path.join(directory, 'dist'),
  ]);
  // Only what pm2 and the bot need: no token or MODEL_* of the machine running the tests.
  const environment = {
    PATH: process.env.PATH ?? '',
    HOME: directory,
    PM2_HOME: path.join(directory, 'pm2'),
    PM2_DISABLE_VERSION_CHECK: 'true',
  };
  const pm2Until = async (signal: AbortSignal | undefined, ...arguments_: string[]): Promise<string> =>
    (await run(pm2Bin, arguments_, { cwd: directory, env: environment, maxBuffer: 20_000_000, ...(signal ? { signal } : {}) })).stdout;
  const pm2 = (...arguments_: string[]): Promise<string> => pm2Until(undefined, ...arguments_);
  let disposed = false;
  return {
    directory,
    writeDotEnv: (settings) =>
      writeFileSync(
        path.join(directory, '.env'),
        Object.entries(settings)
          .map(([name, value]) => `${name}=${value}\n`)
          .join(''),
      ),
    pm2,
    pm2Until,
    daemonLog: () => readFileSync(path.join(environment.PM2_HOME, 'pm2.log'), 'utf8'),
    apps: async () => JSON.parse(await pm2('jlist')) as Pm2App[],
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      try {
        await pm2('kill');
      } finally {
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}

/** Asks `check` up to `attempts` times, 100 ms apart, until it returns a value; the last problem otherwise. */
export async function poll<Value>(what: string, check: () => Promise<Value | undefined>, attempts = 300): Promise<Value> {
  let problem = '';
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      problem = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}${problem ? `: ${problem}` : ''}`);
}

/** /readyz when the bot has it, else /healthz (200 once the platforms run and the model server answers). */
export async function botReady(port: number): Promise<boolean> {
  const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
  if (ready.status !== 404) return ready.status === 200;
  return (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200;
}
