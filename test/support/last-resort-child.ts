import { createLogRedactor } from '../../src/dlp/redact-credentials.js';
import { installLastResort } from '../../src/last-resort.js';
import { createLogger } from '../../src/shared/log.js';

// A child process for test/src/last-resort.test.ts: the bot's logger (redacting LAST_RESORT_SECRET) and last-resort
// handler (with a stand-in for the worker's strike of the messages in flight), then the failure LAST_RESORT_FAILURE names ('exception' or 'rejection'), with the secret in its message.

const secret = process.env.LAST_RESORT_SECRET ?? '';
const log = createLogger({ level: 'info', byLevel: { info: process.stdout, problems: process.stderr }, redact: createLogRedactor([secret]) });
// LAST_RESORT_STRIKE: 'sync' writes the strike at once (SQLite), 'never' is a store that never answers (Redis down).
const strike = process.env.LAST_RESORT_STRIKE;
installLastResort({
  log,
  started: () => process.env.LAST_RESORT_STARTED === '1',
  environment: process.env,
  exit: (code) => process.exit(code),
  strikeInFlight: () => {
    if (strike === 'sync') process.stdout.write('strike stored\n');
    if (strike === 'never') return new Promise<void>(() => process.stdout.write('strike pending\n'));
  },
});
// Keeps the process alive the way the running bot's server does, so only the handler can end it.
setInterval(() => undefined, 60_000);
setImmediate(() => {
  if (process.env.LAST_RESORT_FAILURE === 'rejection') void Promise.reject(new Error(`database password ${secret} refused`));
  else throw new Error(`token ${secret} refused`);
});
