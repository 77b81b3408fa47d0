import { execFile, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeModelServer } from '../fakes/model-server.js';

// The pm2 ecosystem file is evaluated by pm2 itself; here by a plain `node` child, with the same environment a user's
// `pm2 start` would see. It must refuse (exit 1, a message naming the variable) instead of handing pm2 a model app
// whose script does not exist.

// A copy in a scratch directory: its `.env` is the scratch one, never the developer's.
const scratch = mkdtempSync(path.join(tmpdir(), 'saeng-ecosystem-'));
const ecosystem = path.join(scratch, 'ecosystem.config.cjs');
copyFileSync(path.resolve('ecosystem.config.cjs'), ecosystem);
const binDirectory = path.join(scratch, 'bin');
const modelFile = path.join(scratch, 'tiny.gguf');
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function program(name: string): void {
  mkdirSync(binDirectory, { recursive: true });
  const file = path.join(binDirectory, name);
  writeFileSync(file, '#!/bin/sh\nexit 0\n');
  chmodSync(file, 0o755);
}

interface Loaded {
  status: number | null;
  stderr: string;
  apps: {
    name: string;
    script: string;
    args?: string[];
    kill_timeout?: number;
    max_memory_restart?: string;
    exp_backoff_restart_delay?: number;
    min_uptime?: number;
    max_restarts?: number;
    stop_exit_codes?: number[];
    log_date_format?: string;
    time?: boolean;
    merge_logs?: boolean;
    out_file?: string;
  }[];
}

const loadApps = `process.stdout.write(JSON.stringify(require(${JSON.stringify(ecosystem)}).apps))`;
// No inherited MODEL_SERVER/LLAMA_* from the developer's shell; PATH only as the test gives it.
const isolated = (environment: Record<string, string>) => ({ PATH: environment.PATH ?? '/nonexistent', HOME: scratch, ...environment });
const loaded = (status: number | null, stdout: string, stderr: string): Loaded => ({
  status,
  stderr,
  apps: status === 0 ? (JSON.parse(stdout) as Loaded['apps']) : [],
});

function load(environment: Record<string, string>): Loaded {
  const result = spawnSync(process.execPath, ['-e', loadApps], { env: isolated(environment), cwd: scratch, encoding: 'utf8' });
  return loaded(result.status, result.stdout, result.stderr);
}

/** Like load, without blocking this process: a fake server here must answer the file's own check meanwhile. */
function loadBesideServer(environment: Record<string, string>): Promise<Loaded> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['-e', loadApps], { env: isolated(environment), cwd: scratch, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve(loaded(error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr));
    });
  });
}

describe('ecosystem.config.cjs', () => {
  it('refuses, in Thai, when llama-server is not installed', () => {
    const loaded = load({});
    expect(loaded.status).toBe(1);
    expect(loaded.stderr).toContain('ไม่พบโปรแกรม llama-server');
    expect(loaded.stderr).toContain('LLAMA_SERVER_BIN');
  });

  it('refuses in English with BOT_LANGUAGE=en, and names a missing model file', () => {
    program('llama-server');
    const loaded = load({ PATH: binDirectory, BOT_LANGUAGE: 'en', LLAMA_MODEL: path.join(scratch, 'missing.gguf') });
    expect(loaded.status).toBe(1);
    expect(loaded.stderr).toContain('no model file at LLAMA_MODEL=');
    expect(loaded.stderr).toContain('LLAMA_HF=');
  });

  it('runs llama-server from PATH with the model file, --jinja and one slot', () => {
    program('llama-server');
    writeFileSync(modelFile, 'GGUF');
    const loaded = load({ PATH: binDirectory, LLAMA_MODEL: modelFile, LLAMA_PORT: '8099' });
    expect(loaded.status).toBe(0);
    const [model, bot] = loaded.apps;
    expect(model?.name).toBe('model');
    expect(model?.script).toBe(path.join(binDirectory, 'llama-server'));
    expect(model?.args).toEqual(['-m', modelFile, '--host', '127.0.0.1', '--port', '8099', '-c', '8192', '-np', '1', '--jinja']);
    expect(bot?.name).toBe('saeng');
  });

  it('downloads with -hf when LLAMA_HF is set and no file is named', () => {
    program('llama-server');
    const loaded = load({ PATH: binDirectory, LLAMA_HF: 'unsloth/Qwen3.5-2B-GGUF:Q4_K_M' });
    expect(loaded.status).toBe(0);
    expect(loaded.apps[0]?.args?.slice(0, 2)).toEqual(['-hf', 'unsloth/Qwen3.5-2B-GGUF:Q4_K_M']);
  });

  it('reads MODEL_SERVER from .env; the environment wins', () => {
    const dotEnv = path.join(scratch, '.env');
    writeFileSync(dotEnv, 'MODEL_SERVER=none\n');
    try {
      expect(load({}).apps.map((app) => app.name)).toEqual(['saeng']);
      expect(load({ MODEL_SERVER: 'ollama' }).stderr).toContain('ไม่พบโปรแกรม ollama');
    } finally {
      rmSync(dotEnv);
    }
  });

  it('refuses an unknown MODEL_SERVER and a missing ollama', () => {
    expect(load({ MODEL_SERVER: 'vllm' }).stderr).toContain('MODEL_SERVER=vllm');
    const ollama = load({ MODEL_SERVER: 'ollama' });
    expect(ollama.status).toBe(1);
    expect(ollama.stderr).toContain('ไม่พบโปรแกรม ollama');
  });

  it('gives running turns SHUTDOWN_GRACE_MS (.env or environment) plus 10 s before pm2 kills the bot', () => {
    expect(load({ MODEL_SERVER: 'none' }).apps[0]?.kill_timeout).toBe(30_000); // the 20 s default of src/config.ts
    expect(load({ MODEL_SERVER: 'none', SHUTDOWN_GRACE_MS: '45000' }).apps[0]?.kill_timeout).toBe(55_000);
    const dotEnv = path.join(scratch, '.env');
    writeFileSync(dotEnv, 'SHUTDOWN_GRACE_MS=60000\n');
    try {
      expect(load({ MODEL_SERVER: 'none' }).apps[0]?.kill_timeout).toBe(70_000);
      // A bad value is the bot's to refuse, with its message; pm2 keeps the default meanwhile.
      expect(load({ MODEL_SERVER: 'none', SHUTDOWN_GRACE_MS: 'soon' }).apps[0]?.kill_timeout).toBe(30_000);
    } finally {
      rmSync(dotEnv);
    }
  });

  it('restarts crashes with back-off, gives up on a bot that cannot start, and caps only the bot memory', () => {
    program('llama-server');
    writeFileSync(modelFile, 'GGUF');
    const [model, bot] = load({ PATH: binDirectory, LLAMA_MODEL: modelFile }).apps;
    expect(bot).toMatchObject({ exp_backoff_restart_delay: 1_000, min_uptime: 10_000, max_restarts: 3, max_memory_restart: '512M' });
    // Node exits 1 on an uncaught exception too: exit code 1 must not mean "stop".
    expect(bot?.stop_exit_codes).toBeUndefined();
    expect(model?.exp_backoff_restart_delay).toBe(2_000);
    expect(model?.max_memory_restart).toBeUndefined();
    for (const app of [model, bot]) {
      expect(app).toMatchObject({ log_date_format: 'YYYY-MM-DD HH:mm:ss Z', merge_logs: true });
      expect(app?.time).toBeUndefined(); // pm2 would replace the format with one without the UTC offset
      expect(app?.out_file).toBe(path.join(scratch, 'logs', `${app?.name}.out.log`));
    }
  });

  it('EMBEDDINGS_SERVER=llama-server adds an embeddings app: --embeddings, its own port, batches as large as its context', () => {
    program('llama-server');
    writeFileSync(modelFile, 'GGUF');
    const loaded = load({ PATH: binDirectory, LLAMA_MODEL: modelFile, EMBEDDINGS_SERVER: 'llama-server', LLAMA_EMBEDDINGS_HF: 'gpustack/bge-m3-GGUF:Q4_K_M' });
    expect(loaded.status).toBe(0);
    expect(loaded.apps.map((app) => app.name)).toEqual(['model', 'embeddings', 'saeng']);
    expect(loaded.apps[1]?.args).toEqual([
      '-hf',
      'gpustack/bge-m3-GGUF:Q4_K_M',
      '--embeddings',
      '--host',
      '127.0.0.1',
      '--port',
      '8081',
      '-c',
      '2048',
      '-b',
      '2048',
      '-ub',
      '2048',
      '-np',
      '1',
    ]);
    const missing = load({ PATH: binDirectory, MODEL_SERVER: 'none', EMBEDDINGS_SERVER: 'llama-server' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('LLAMA_EMBEDDINGS_MODEL=models/embeddings.gguf');
    expect(load({ MODEL_SERVER: 'none', EMBEDDINGS_SERVER: 'ollama' }).stderr).toContain('EMBEDDINGS_SERVER=ollama');
  });
});

describe('ecosystem.config.cjs with an Ollama already running', () => {
  it('refuses MODEL_SERVER=ollama when an Ollama answers on OLLAMA_HOST, and says to set MODEL_SERVER=none (Thai, English)', async () => {
    program('ollama');
    const running = await startFakeModelServer({ flavour: 'ollama' });
    try {
      const host = new URL(running.url).host;
      const thai = await loadBesideServer({ PATH: binDirectory, MODEL_SERVER: 'ollama', OLLAMA_HOST: host });
      expect(thai.status).toBe(1);
      expect(thai.stderr).toContain(`ทำงานอยู่แล้วที่ ${host}`);
      expect(thai.stderr).toContain('ตั้ง MODEL_SERVER=none ใน .env');
      const english = await loadBesideServer({ PATH: binDirectory, MODEL_SERVER: 'ollama', OLLAMA_HOST: `http://${host}`, BOT_LANGUAGE: 'en' });
      expect(english.stderr).toContain(`is already running at http://${host}`);
      expect(english.stderr).toContain(`set MODEL_SERVER=none in .env and the bot uses that one (MODEL_BASE_URL=http://${host}/v1)`);
    } finally {
      await running.close();
    }
  });

  it('runs `ollama serve` when nothing answers there, and leaves pm2’s own running model app alone', async () => {
    program('ollama');
    const running = await startFakeModelServer({ flavour: 'ollama' });
    const host = new URL(running.url).host;
    try {
      // pm2 writes <PM2_HOME>/pids/<name>-<id>.pid for a running app and removes it when the app exits.
      const pm2Home = path.join(scratch, 'pm2-home');
      mkdirSync(path.join(pm2Home, 'pids'), { recursive: true });
      writeFileSync(path.join(pm2Home, 'pids', 'model-0.pid'), String(process.pid));
      const own = await loadBesideServer({ PATH: binDirectory, MODEL_SERVER: 'ollama', OLLAMA_HOST: host, PM2_HOME: pm2Home });
      expect(own.status).toBe(0);
      expect(own.apps.map((app) => app.name)).toEqual(['model', 'saeng']);
    } finally {
      await running.close();
    }
    const free = await loadBesideServer({ PATH: binDirectory, MODEL_SERVER: 'ollama', OLLAMA_HOST: host });
    expect(free.status).toBe(0);
    expect(free.apps[0]?.args).toEqual(['serve']);
  });
});
