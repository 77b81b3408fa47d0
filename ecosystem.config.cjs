// pm2: the bot beside its local model server. `pm2 start ecosystem.config.cjs`
//   MODEL_SERVER=llama-server (default) | ollama | none   — which model server pm2 runs beside the bot
//   LLAMA_SERVER_BIN, LLAMA_MODEL (path to a .gguf), LLAMA_MMPROJ (optional vision projector), LLAMA_PORT, LLAMA_CTX
//   OLLAMA_BIN, OLLAMA_HOST
// The bot reads the rest of its settings from the environment / .env (see .env.example).
const path = require('node:path');

const modelServer = process.env.MODEL_SERVER || 'llama-server';
const logs = (name) => ({
  out_file: path.join(__dirname, 'logs', `${name}.out.log`),
  error_file: path.join(__dirname, 'logs', `${name}.err.log`),
  time: true,
});

const saeng = {
  name: 'saeng',
  cwd: __dirname,
  script: 'dist/src/main.js', // built by `npm ci` (prepare) or `npm run build`
  interpreter: 'node',
  // A small V8 heap: the bot shares an 8 GB box with the model (bench: peak RSS under 150 MB for 1,000 turns).
  node_args: ['--max-semi-space-size=2', '--max-old-space-size=256'],
  exec_mode: 'fork', // never cluster: one gateway/polling connection per bot token
  instances: 1,
  wait_ready: true, // src/main.ts sends 'ready' once the model server answers (or its wait is over)
  listen_timeout: 180_000,
  kill_timeout: 30_000, // SIGINT lets queued turns finish
  exp_backoff_restart_delay: 1_000,
  max_memory_restart: '1G',
  env: { NODE_ENV: 'production', SAENG_WAIT_FOR_MODEL: '1' },
  ...logs('saeng'),
};

const llamaPort = process.env.LLAMA_PORT || '8080';
const llamaArgs = [
  '-m',
  process.env.LLAMA_MODEL || 'models/model.gguf',
  '--host',
  '127.0.0.1',
  '--port',
  llamaPort,
  '-c',
  process.env.LLAMA_CTX || '8192',
  '-np',
  '1',
  '--jinja', // tool calling needs the Jinja chat template
];
if (process.env.LLAMA_MMPROJ) llamaArgs.push('--mmproj', process.env.LLAMA_MMPROJ);

const servers = {
  'llama-server': {
    name: 'model',
    script: process.env.LLAMA_SERVER_BIN || 'llama-server',
    args: llamaArgs,
    interpreter: 'none',
    exp_backoff_restart_delay: 2_000, // a missing model file or OOM must not spin
    ...logs('model'),
  },
  ollama: {
    name: 'model',
    script: process.env.OLLAMA_BIN || 'ollama',
    args: ['serve'],
    interpreter: 'none',
    exp_backoff_restart_delay: 2_000,
    env: { OLLAMA_HOST: process.env.OLLAMA_HOST || '127.0.0.1:11434', OLLAMA_KEEP_ALIVE: '-1' },
    ...logs('model'),
  },
};

module.exports = { apps: modelServer === 'none' ? [saeng] : [servers[modelServer], saeng].filter(Boolean) };
