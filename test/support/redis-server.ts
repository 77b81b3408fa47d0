import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

/**
 * A real redis-server (Debian's package) on a free loopback port for one test file: no persistence by default (fast,
 * and empty after a restart); `persistence: 'aof'` as production must run it (appendonly yes, appendfsync everysec),
 * which the bot requires at start (src/shared-servers.ts).
 */
export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (SIGTERM, waits for the exit); `start()` brings it back on the same port (empty without AOF). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its folder. */
  close(): Promise<void>;
}

function waitForReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output.slice(-2000)}`)));
    child.once('error', reject);
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export interface RedisServerOptions {
  persistence?: 'none' | 'aof';
}

async function launch(port: number, folder: string, options: RedisServerOptions): Promise<ChildProcess> {
  const persistence = options.persistence === 'aof' ? ['--appendonly', 'yes', '--appendfsync', 'everysec'] : ['--appendonly', 'no'];
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', folder], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForReady(child);
  child.stdout?.resume();
  child.stderr?.resume();
  return child;
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'saeng-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;
  // The port is free when picked; another process may take it before redis binds, so a failed start picks again.
  for (let attempt = 1; child === undefined; attempt++) {
    port = await freePort();
    try {
      child = await launch(port, folder, options);
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }

  const stop = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running) return;
    running.kill('SIGTERM');
    await exited(running);
  };

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    // Back on the port the clients know.
    start: async () => {
      child ??= await launch(port, folder, options);
    },
    close: async () => {
      await stop();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
