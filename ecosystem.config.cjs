// pm2: the bot beside its local model server. `npx pm2 start ecosystem.config.cjs`
//   MODEL_SERVER=llama-server (default) | ollama | none   — which model server pm2 runs beside the bot
//   llama-server: LLAMA_SERVER_BIN (default: llama-server on PATH), and either LLAMA_MODEL (a .gguf file) or
//                 LLAMA_HF (a Hugging Face repo:quant, downloaded on first start), LLAMA_MMPROJ (vision projector),
//                 LLAMA_PORT, LLAMA_CTX
//   ollama:       OLLAMA_BIN (default: ollama on PATH), OLLAMA_HOST
//   EMBEDDINGS_SERVER=none (default) | llama-server — an embeddings app for hybrid KB search: LLAMA_EMBEDDINGS_MODEL
//                 or LLAMA_EMBEDDINGS_HF, LLAMA_EMBEDDINGS_PORT (8081), LLAMA_EMBEDDINGS_CTX (2048)
// These may be set in the environment or in .env (the environment wins). The bot reads the rest of its settings
// from .env (see .env.example). What a server needs is checked here, so `pm2 start` fails with a message instead
// of running the bot alone beside a model app pm2 could not start ("Script not found").
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { parseEnv } = require('node:util');

const dotEnvFile = path.join(__dirname, '.env');
const dotEnv = fs.existsSync(dotEnvFile) ? parseEnv(fs.readFileSync(dotEnvFile, 'utf8')) : {};
const setting = (name, fallback) => process.env[name] || dotEnv[name] || fallback;
const thai = setting('BOT_LANGUAGE', 'th') !== 'en';

/** Stops `pm2 start` (exit 1) with the problem and what to do, in the bot's language; a thrown error would bury it
 * under pm2's "File malformated" and a stack trace. */
function refuse(thaiText, englishText) {
  process.stderr.write(`ecosystem.config.cjs: ${thai ? thaiText : englishText}\n`);
  process.exit(1);
}

/** The executable pm2 would run: a path as given, else the first match on PATH; undefined when there is none. */
function findProgram(program) {
  const isExecutable = (file) => {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (program.includes('/')) return isExecutable(path.resolve(__dirname, program)) ? path.resolve(__dirname, program) : undefined;
  for (const directory of (process.env.PATH || '').split(path.delimiter)) {
    if (directory && isExecutable(path.join(directory, program))) return path.join(directory, program);
  }
  return undefined;
}

// Every line stamped with the local date, time and UTC offset: llama-server and Ollama print none, and the bot's JSON
// `time` is epoch milliseconds. (pm2's `time: true` would override this with a format without the offset.)
const logs = (name) => ({
  out_file: path.join(__dirname, 'logs', `${name}.out.log`),
  error_file: path.join(__dirname, 'logs', `${name}.err.log`),
  log_date_format: 'YYYY-MM-DD HH:mm:ss Z',
  merge_logs: true, // the file names as given, without pm2's `-<id>` suffix
});

/** A whole number of milliseconds from the environment or .env; the fallback when it is not one (the bot itself
 * refuses a bad value at start with a message naming it). */
function milliseconds(name, fallback) {
  const value = Number(setting(name, String(fallback)));
  return Number.isSafeInteger(value) && value > 0 ? value : fallback;
}
// src/config.ts: SHUTDOWN_GRACE_MS defaults to 20 s.
const shutdownGraceMs = milliseconds('SHUTDOWN_GRACE_MS', 20_000);

const saeng = {
  name: 'saeng',
  cwd: __dirname,
  script: 'dist/src/main.js', // built by `npm ci` (prepare) or `npm run build`
  interpreter: 'node',
  // A small V8 heap: the bot shares an 8 GB box with the model (bench: peak RSS under 150 MB for 1,000 turns).
  node_args: ['--max-semi-space-size=2', '--max-old-space-size=256'],
  exec_mode: 'fork', // never cluster: one gateway/polling connection per bot token
  instances: 1,
  // src/main.ts sends 'ready' once the model server answers (or its 120 s wait is over) and each platform's first
  // start attempt has settled (at most 60 s more): the time-out leaves room for both.
  wait_ready: true,
  listen_timeout: 200_000,
  // pm2 sends SIGINT, then SIGKILL after kill_timeout: the grace the bot gives running turns, plus closing the stores.
  kill_timeout: shutdownGraceMs + 10_000,
  // A crash (any signal or exit code) restarts after 1 s, 1.5 s, 2.25 s … up to 15 s; back to 1 s after 30 s up.
  exp_backoff_restart_delay: 1_000,
  // pm2 7 (lib/God.js handleExit) counts an exit as unstable when the process ran less than min_uptime, and only in
  // the first min_uptime × max_restarts (30 s) after `pm2 start`/`restart`; at max_restarts it stops the app for
  // good. So a bot that cannot start (bad configuration, unusable DATA_DIR, busy HTTP_PORT, Redis not answering: exit 1
  // within a second or two) is stopped after 3 tries instead of looping with back-off forever; `pm2 logs saeng` says
  // why. (pm2 7 then lists it as "waiting restart", but it stays down.) A crash after start-up must never count so:
  // src/last-resort.ts logs an uncaught error and exits 70 only once the process has been up min_uptime (pm2 gives it
  // pm_uptime and min_uptime in its environment), so pm2 restarts it with back-off, however early and often it
  // crashes. Not stop_exit_codes: [1]: that would stop a bot whose Redis is a few seconds late at boot at once.
  min_uptime: 10_000,
  max_restarts: 3,
  // V8 heap capped at 256 MB above; RSS adds native memory (SQLite caches, libvips decoding an image up to
  // MAX_IMAGE_PIXELS). Past 512 MB something leaks: a graceful restart (SIGINT, kill_timeout) beats the OOM killer.
  max_memory_restart: '512M',
  env: { NODE_ENV: 'production', SAENG_WAIT_FOR_MODEL: '1' },
  ...logs('saeng'),
};

// No max_memory_restart for the model server: its RSS is the model's weights and KV cache (fixed by the model file and
// LLAMA_CTX, several GB), not a leak, and a restart reloads the model for minutes. Too big a model is the kernel's
// OOM killer's call, which pm2 then restarts with back-off. It gets a few seconds to free the GPU/RAM on stop.
const modelLimits = { kill_timeout: 10_000 };

/** The llama-server program pm2 runs (`variable`: the setting that chose llama-server, named in the refusal). */
function llamaServerProgram(variable) {
  const program = setting('LLAMA_SERVER_BIN', 'llama-server');
  const script = findProgram(program);
  if (!script) {
    refuse(
      `ไม่พบโปรแกรม ${program} (${variable}=llama-server): ติดตั้ง llama.cpp ตามหัวข้อ "Getting a model" ใน README แล้วตั้ง LLAMA_SERVER_BIN=/ที่อยู่/llama-server หรือใช้ MODEL_SERVER=ollama / MODEL_SERVER=none`,
      `cannot find ${program} (${variable}=llama-server): install llama.cpp (README, "Getting a model") and set LLAMA_SERVER_BIN=/path/to/llama-server, or use MODEL_SERVER=ollama / MODEL_SERVER=none`,
    );
  }
  return script;
}

/** `-m <file>` when the file setting is given (it must exist), else `-hf <repo:quant>` (downloaded on first start). */
function modelArguments(fileVariable, hfVariable, example, defaultFile) {
  const hfModel = setting(hfVariable, '');
  const modelFile = setting(fileVariable, hfModel ? '' : defaultFile);
  if (!modelFile) return ['-hf', hfModel];
  if (!fs.existsSync(path.resolve(__dirname, modelFile))) {
    refuse(
      `ไม่พบไฟล์โมเดล ${fileVariable}=${modelFile}: ดาวน์โหลดไฟล์ .gguf ตามหัวข้อ "Getting a model" ใน README หรือตั้ง ${hfVariable}=${example} ให้ llama-server ดาวน์โหลดเอง`,
      `no model file at ${fileVariable}=${modelFile}: download a .gguf (README, "Getting a model") or set ${hfVariable}=${example} and llama-server downloads it`,
    );
  }
  return ['-m', path.resolve(__dirname, modelFile)];
}

function llamaServer() {
  const script = llamaServerProgram('MODEL_SERVER');
  const model = modelArguments('LLAMA_MODEL', 'LLAMA_HF', 'unsloth/Qwen3.5-2B-GGUF:Q4_K_M', 'models/model.gguf');
  const projector = setting('LLAMA_MMPROJ', '');
  if (projector) model.push('--mmproj', path.resolve(__dirname, projector));
  return {
    name: 'model',
    cwd: __dirname,
    script,
    args: [
      ...model,
      '--host',
      '127.0.0.1',
      '--port',
      setting('LLAMA_PORT', '8080'),
      '-c',
      setting('LLAMA_CTX', '8192'),
      '-np',
      '1',
      '--jinja', // tool calling needs the Jinja chat template
    ],
    interpreter: 'none',
    exp_backoff_restart_delay: 2_000, // a crash or OOM must not spin
    ...modelLimits,
    ...logs('model'),
  };
}

/**
 * EMBEDDINGS_SERVER=llama-server: a second llama-server in embedding mode for hybrid KB search (EMBEDDINGS_BASE_URL
 * points the bot at it). A whole chunk must fit one batch, or llama-server refuses it ("input is too large"): the
 * batch sizes equal the context. With Ollama no extra app is needed (the same `ollama serve` embeds).
 */
function embeddingsServer() {
  const kind = setting('EMBEDDINGS_SERVER', 'none');
  if (kind === 'none') return undefined;
  if (kind !== 'llama-server') {
    refuse(`EMBEDDINGS_SERVER=${kind} ไม่รู้จัก: ใช้ llama-server หรือ none`, `unknown EMBEDDINGS_SERVER=${kind}: use llama-server or none`);
  }
  const context = setting('LLAMA_EMBEDDINGS_CTX', '2048');
  return {
    name: 'embeddings',
    cwd: __dirname,
    script: llamaServerProgram('EMBEDDINGS_SERVER'),
    args: [
      ...modelArguments('LLAMA_EMBEDDINGS_MODEL', 'LLAMA_EMBEDDINGS_HF', 'gpustack/bge-m3-GGUF:Q4_K_M', 'models/embeddings.gguf'),
      '--embeddings',
      '--host',
      '127.0.0.1',
      '--port',
      setting('LLAMA_EMBEDDINGS_PORT', '8081'),
      '-c',
      context,
      '-b',
      context,
      '-ub',
      context,
      '-np',
      '1',
    ],
    interpreter: 'none',
    exp_backoff_restart_delay: 2_000,
    ...modelLimits,
    ...logs('embeddings'),
  };
}

/** OLLAMA_HOST as Ollama reads it (`host`, `host:port` or a URL; 0.0.0.0 listens on every address) → a base URL. */
function ollamaUrl(host) {
  const url = new URL(/^https?:\/\//.test(host) ? host : `http://${host}`);
  if (!url.port) url.port = '11434';
  if (url.hostname === '0.0.0.0' || url.hostname === '[::]') url.hostname = '127.0.0.1';
  return url.origin;
}

// In a child: pm2 loads this file synchronously, and fetch is not. GET /api/version answers `{ "version": … }`.
const askOllamaVersion = `fetch(process.argv[1] + '/api/version', { signal: AbortSignal.timeout(1500) })
  .then((response) => response.json())
  .then((body) => process.stdout.write(typeof body.version === 'string' ? body.version.slice(0, 40) : ''))
  .catch(() => undefined);`;

/** The version of an Ollama already answering at `url` (the installer's system service), else undefined. */
function ollamaAnswering(url) {
  const child = spawnSync(process.execPath, ['-e', askOllamaVersion, url], { encoding: 'utf8', timeout: 3_000 });
  return child.status === 0 && child.stdout ? child.stdout : undefined;
}

/** Whether pm2 runs this file's own `model` app now (its pid file, removed when it exits, names a live process). */
function pm2RunsModelApp() {
  const pids = path.join(process.env.PM2_HOME || path.join(require('node:os').homedir(), '.pm2'), 'pids');
  const files = fs.existsSync(pids) ? fs.readdirSync(pids).filter((name) => /^model-\d+\.pid$/.test(name)) : [];
  return files.some((name) => {
    const pid = Number(fs.readFileSync(path.join(pids, name), 'utf8'));
    try {
      return Number.isSafeInteger(pid) && pid > 0 && process.kill(pid, 0);
    } catch (error) {
      return error.code === 'EPERM';
    }
  });
}

function ollama() {
  const host = setting('OLLAMA_HOST', '127.0.0.1:11434');
  // The Ollama installer starts a system service on 11434: a second `ollama serve` there fails to bind and pm2
  // restarts it in a loop. Unless the one answering is pm2's own (`npm run up` again, `npm run down`), refuse.
  const running = pm2RunsModelApp() ? undefined : ollamaAnswering(ollamaUrl(host));
  if (running) {
    refuse(
      `มี Ollama ${running} ทำงานอยู่แล้วที่ ${host} (บริการของระบบที่ตัวติดตั้ง Ollama เปิดไว้): ตั้ง MODEL_SERVER=none ใน .env แล้วบอทจะใช้ Ollama ตัวนั้นเอง (MODEL_BASE_URL=${ollamaUrl(host)}/v1)`,
      `Ollama ${running} is already running at ${host} (the system service the Ollama installer set up): set MODEL_SERVER=none in .env and the bot uses that one (MODEL_BASE_URL=${ollamaUrl(host)}/v1)`,
    );
  }
  const program = setting('OLLAMA_BIN', 'ollama');
  const script = findProgram(program);
  if (!script) {
    refuse(
      `ไม่พบโปรแกรม ${program} (MODEL_SERVER=ollama): ติดตั้ง Ollama ตามหัวข้อ "Getting a model" ใน README หรือตั้ง OLLAMA_BIN=/ที่อยู่/ollama`,
      `cannot find ${program} (MODEL_SERVER=ollama): install Ollama (README, "Getting a model") or set OLLAMA_BIN=/path/to/ollama`,
    );
  }
  return {
    name: 'model',
    cwd: __dirname,
    script,
    args: ['serve'],
    interpreter: 'none',
    exp_backoff_restart_delay: 2_000,
    ...modelLimits,
    env: { OLLAMA_HOST: host, OLLAMA_KEEP_ALIVE: '-1' },
    ...logs('model'),
  };
}

const modelServer = setting('MODEL_SERVER', 'llama-server');
const servers = { 'llama-server': llamaServer, ollama, none: () => undefined };
if (!Object.hasOwn(servers, modelServer)) {
  refuse(`MODEL_SERVER=${modelServer} ไม่รู้จัก: ใช้ llama-server, ollama หรือ none`, `unknown MODEL_SERVER=${modelServer}: use llama-server, ollama or none`);
}
const model = servers[modelServer]();
const embeddings = embeddingsServer();

module.exports = { apps: [model, embeddings, saeng].filter(Boolean) };
