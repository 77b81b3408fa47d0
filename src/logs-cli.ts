import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { createLineFormatter, type LineFormatter } from './logs/pretty-line.js';

// `npm run logs [-- pm2 options, e.g. --lines 200]`: pm2's logs of the bot and its model server, readable — the bot's
// JSON lines pretty, in local time (src/logs/pretty-line.ts). `--stdin` formats a log piped in instead
// (`cat logs/saeng.out.log | npm run -s logs -- --stdin`).

function formatLines(input: Readable, output: Writable, format: LineFormatter): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Infinity });
  lines.on('line', (line) => output.write(`${format(line)}\n`));
  return new Promise((resolve) => lines.once('close', resolve));
}

const argv = process.argv.slice(2);
if (argv.includes('--stdin')) {
  await formatLines(process.stdin, process.stdout, createLineFormatter({ colorize: Boolean(process.stdout.isTTY) }));
} else {
  const pm2 = createRequire(import.meta.url).resolve('pm2/bin/pm2');
  const child = spawn(process.execPath, [pm2, 'logs', 'saeng', 'model', '--raw', ...argv], {
    env: { ...process.env, PM2_DISABLE_VERSION_CHECK: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // pm2 --raw writes the apps' error logs to stderr: they stay there, formatted alike.
  void formatLines(child.stdout, process.stdout, createLineFormatter({ colorize: Boolean(process.stdout.isTTY) }));
  void formatLines(child.stderr, process.stderr, createLineFormatter({ colorize: Boolean(process.stderr.isTTY) }));
  const stop = (): void => void child.kill('SIGINT');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  child.once('exit', (code) => (process.exitCode = code ?? 0));
}
