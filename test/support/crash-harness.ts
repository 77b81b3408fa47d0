import { configSecrets, loadConfig } from '../../src/config.js';
import { createLogRedactor } from '../../src/dlp/redact-credentials.js';
import { startService } from '../../src/service.js';
import { parseInboundMessage } from '../../src/shared/inbound-message-schema.js';
import { createLogger } from '../../src/shared/log.js';
import { createCrashTestAdapter, type AdapterEvent, type HoldPoint } from './crash-test-adapter.js';

// The crash test's child process (test/e2e/crash-recovery.test.ts): the real service (app, durable queue, worker,
// graceful shutdown) with the crash-test adapter. The test talks to it over the IPC channel:
//   test → child  { type: 'deliver', id, message }
//   child → test  { type: 'ready' } · { type: 'accepted', id, result } · the adapter's events

export type HarnessEvent = { type: 'ready' } | { type: 'accepted'; id: number; result: string } | AdapterEvent;

const send = (event: HarnessEvent) => process.send?.(event);
const config = loadConfig(process.env);
const log = createLogger({ level: config.LOG_LEVEL, destination: process.stderr, redact: createLogRedactor(configSecrets(config)) });
const adapter = createCrashTestAdapter({
  outboxPath: process.env.CRASH_TEST_OUTBOX ?? '',
  splitChars: Number(process.env.CRASH_TEST_SPLIT_CHARS ?? '40'),
  hold: (process.env.CRASH_TEST_HOLD ?? 'none') as HoldPoint,
  emit: send,
});
process.on('message', (received: { type: string; id: number; message: unknown }) => {
  if (received.type !== 'deliver') return;
  adapter.deliver(parseInboundMessage(received.message)).then(
    (result) => send({ type: 'accepted', id: received.id, result }),
    (error: unknown) => log.error({ error: String(error) }, 'delivery failed'),
  );
});
await startService({ config, log, adapters: [adapter] });
send({ type: 'ready' });
