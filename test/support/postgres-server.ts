import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';
import { postgresProgram } from './system-programs.js';

/**
 * A real PostgreSQL (Debian's package) in a temporary data directory on a free loopback port, for one test file.
 * PostgreSQL refuses to run as root, so as root the server runs as the `postgres` user the package created.
 */
export interface PostgresServer {
  /** The server's own database, as the superuser (trust authentication on loopback). */
  url: string;
  port: number;
  /** A new empty database on this server; its URL. */
  createDatabase(name?: string): Promise<string>;
  /** Stops the server (fast shutdown, waits); `start()` brings it back on the same port with its data. */
  stop(): void;
  start(): void;
  /** Whether the pgvector extension is installed here (Debian: postgresql-15-pgvector). */
  hasVector: boolean;
  close(): void;
}

function binDirectory(): string {
  const bin = postgresProgram.locate();
  if (bin === undefined) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  return bin;
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL program, as `postgres` when this process is root. */
function run(program: string, args: string[]): void {
  const [command, commandArgs] = asRoot ? ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', program, ...args]] : [program, args];
  const result = spawnSync(command, commandArgs, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${path.basename(program)} failed (${result.status}): ${result.stderr || result.stdout}`);
}

/** Runs `work` with a pool on `url`, and ends the pool whatever happens. */
export async function withPool<T>(url: string, work: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = new pg.Pool({ connectionString: url });
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}

let databaseCount = 0;

export async function startPostgresServer(): Promise<PostgresServer> {
  const bin = binDirectory();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'saeng-pg-'));
  const data = path.join(folder, 'data');
  if (asRoot) execFileSync('chown', ['postgres:postgres', folder]);
  run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync']);
  let port = 0;
  const start = () =>
    run(path.join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-w',
      '-l',
      path.join(folder, 'server.log'),
      '-o',
      `-p ${port} -h 127.0.0.1 -k ${folder} -c fsync=off -c full_page_writes=off -c max_connections=200`,
      'start',
    ]);
  // The port is free when picked; another process may take it first, so a failed start picks again.
  for (let attempt = 1; ; attempt++) {
    port = await freePort();
    try {
      start();
      break;
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stop = () => run(path.join(bin, 'pg_ctl'), ['-D', data, '-w', '-m', 'fast', 'stop']);
  const hasVector = fs.existsSync(path.join('/usr/share/postgresql', path.basename(path.dirname(bin)), 'extension', 'vector.control'));
  return {
    url,
    port,
    hasVector,
    async createDatabase(name = `test_${process.pid}_${++databaseCount}`) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop,
    start,
    close() {
      try {
        stop();
      } catch {
        // Already stopped.
      }
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
