import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeLine, type FakeLine } from '../fakes/line/index.js';
import { startFakeModelServer, type FakeModelServer } from '../fakes/model-server.js';
import { startFakeTelegram, type FakeTelegram } from '../fakes/telegram/index.js';
import { botEnvironment, killAllBots, startBotProcess, type BotProcess } from '../support/bot-process.js';
import { rawRequest, type RawAnswer } from '../support/raw-http.js';

// Malformed HTTP from fast-check (seeded, bounded) over raw sockets against the real bot (src/main.ts) with every
// route it serves: the LINE webhook, the Telegram webhook, signed file links, /healthz, /readyz, /metrics. Request
// lines, methods, targets, versions, headers (duplicated, oversized, contradictory lengths, chunked), and bodies.
// Every request gets an answer or a clean close, and the process is still up and healthy afterwards.

const telegramSecret = 'fuzz-secret_0123456789';
const requestCount = 600;
const concurrency = 40;

let line: FakeLine;
let telegram: FakeTelegram;
let model: FakeModelServer;
let workDir: string;
let bot: BotProcess;
let port: number;

beforeAll(async () => {
  line = await startFakeLine();
  telegram = await startFakeTelegram();
  model = await startFakeModelServer({ flavour: 'generic', modelId: 'test-model' });
  workDir = mkdtempSync(path.join(os.tmpdir(), 'saeng-fuzz-'));
  bot = await startBotProcess(
    {
      LINE_CHANNEL_SECRET: line.channelSecret,
      LINE_CHANNEL_ACCESS_TOKEN: line.channelAccessToken,
      LINE_API_BASE_URL: line.url,
      LINE_DATA_API_BASE_URL: line.url,
      TELEGRAM_BOT_TOKEN: telegram.token,
      TELEGRAM_API_ROOT: telegram.url,
      TELEGRAM_WEBHOOK_URL: 'https://bot.example.com/webhooks/telegram',
      TELEGRAM_WEBHOOK_SECRET: telegramSecret,
      PUBLIC_BASE_URL: 'https://bot.example.com',
      ...botEnvironment(model.url, path.join(workDir, 'data'), 'info'),
    },
    workDir,
  );
  port = (JSON.parse(await bot.stdoutLine('"http server listening"')) as { port: number }).port;
}, 60_000);
afterAll(async () => {
  await killAllBots();
  await line?.close();
  await telegram?.close();
  await model?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const token = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,12}$/);
const anyText = (maxLength: number) => fc.string({ unit: 'binary', maxLength }).map((text) => Buffer.from(text, 'utf8').toString('latin1'));

/** Printable ASCII: what a request can carry without breaking its framing. */
const printable = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength });
const rarely = <Value>(arbitrary: fc.Arbitrary<Value>) => ({ arbitrary, weight: 1 });
const mostly = <Value>(arbitrary: fc.Arbitrary<Value>) => ({ arbitrary, weight: 6 });

const method = fc.oneof(
  mostly(fc.constantFrom('GET', 'POST', 'POST', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'CONNECT')),
  rarely(token),
  rarely(anyText(8)),
);
const knownPath = fc.constantFrom(
  '/healthz',
  '/readyz',
  '/metrics',
  '/webhooks/line',
  '/webhooks/line',
  '/webhooks/telegram',
  '/webhooks/telegram',
  '/files',
  '/',
);
const target = fc.oneof(
  mostly(knownPath),
  mostly(fc.tuple(knownPath, printable(40)).map(([base, query]) => `${base}?${query}`)),
  {
    arbitrary: fc.constantFrom(
      '//[',
      'http://[/',
      '/\\[',
      '*',
      'http://x/healthz',
      '//healthz',
      '/%',
      '/files?f=../../etc/passwd&e=9999999999&s=x',
      '/files?f=%ff&e=1e400&s=',
    ),
    weight: 2,
  },
  rarely(printable(60)),
  rarely(anyText(60)),
);
const version = fc.oneof(
  { arbitrary: fc.constant('HTTP/1.1'), weight: 12 },
  rarely(fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.1 extra', 'http/1.1', '')),
  rarely(anyText(10)),
);
const headerName = fc.oneof(
  mostly(
    fc.constantFrom(
      'Content-Length',
      'Transfer-Encoding',
      'X-Line-Signature',
      'X-Telegram-Bot-Api-Secret-Token',
      'Expect',
      'Connection',
      'Upgrade',
      'Host',
      'Content-Type',
    ),
  ),
  { arbitrary: fc.constantFrom('X-Line-Signature', 'X-Telegram-Bot-Api-Secret-Token', 'Content-Type', 'Accept'), weight: 12 },
  mostly(token),
  rarely(anyText(12)),
);
const headerValue = fc.oneof(
  { arbitrary: fc.constantFrom('application/json', 'keep-alive', 'x', telegramSecret), weight: 12 },
  mostly(
    fc.constantFrom(
      '0',
      '5',
      '100',
      '-1',
      '1e3',
      '99999999999999999999',
      'chunked',
      'gzip, chunked',
      '100-continue',
      'upgrade',
      'websocket',
      'close',
      telegramSecret,
    ),
  ),
  mostly(printable(40)),
  mostly(fc.nat({ max: 2_000_000 }).map(String)),
  rarely(printable(20_000)),
  rarely(anyText(40)),
);
const header = fc.tuple(headerName, headerValue).map(([name, value]) => `${name}: ${value}`);
const body = fc.oneof(
  fc.constant(''),
  anyText(300),
  fc.constantFrom('{"events":[]}', '{"update_id":1,"message":{}}', '5\r\nhello\r\n0\r\n\r\n', 'zz\r\nhello\r\n', '{"events":[{"type":"message"}]}'),
);
const lineEnd = fc.oneof({ arbitrary: fc.constant('\r\n'), weight: 12 }, rarely(fc.constant('\n')));

const request = fc
  .record({
    method,
    target,
    version,
    headers: fc.array(header, { maxLength: 3 }),
    withHost: fc.oneof(mostly(fc.constant(true)), rarely(fc.constant(false))),
    body,
    lineEnd,
    withLength: fc.boolean(),
  })
  .map(({ method: verb, target: path, version: protocol, headers, withHost, body: content, lineEnd: end, withLength }) => {
    const lines = [`${verb} ${path} ${protocol}`.trimEnd(), ...(withHost ? ['Host: 127.0.0.1'] : []), ...headers];
    if (withLength) lines.push(`Content-Length: ${Buffer.byteLength(content, 'latin1')}`);
    return Buffer.from(`${lines.join(end)}${end}${end}${content}`, 'latin1');
  });

async function inPool<Item, Result>(items: readonly Item[], size: number, work: (item: Item) => Promise<Result>): Promise<Result[]> {
  const results: Result[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let index = next++; index < items.length; index = next++) results[index] = await work(items[index] as Item);
  };
  await Promise.all(Array.from({ length: size }, worker));
  return results;
}

describe('HTTP fuzz against the running bot', { timeout: 240_000 }, () => {
  it(`answers or cleanly closes each of ${requestCount} malformed requests, and is still up after`, async () => {
    const requests = fc.sample(request, { seed: 20_261_206, numRuns: requestCount });
    const answers: RawAnswer[] = await inPool(requests, concurrency, (bytes) => rawRequest(port, [bytes]));
    const failures = answers.flatMap((answer, index) =>
      answer.end === 'reset' || (answer.end === 'closed' && answer.status === undefined && answer.received !== '')
        ? [{ request: requests[index]?.toString('latin1').slice(0, 200), answer }]
        : [],
    );
    expect(failures).toEqual([]);
    const statuses = answers.reduce<Record<string, number>>(
      (counts, answer) => ({ ...counts, [String(answer.status)]: (counts[String(answer.status)] ?? 0) + 1 }),
      {},
    );
    console.info(JSON.stringify({ requests: requestCount, statuses }));
    expect(answers.filter((answer) => answer.status !== undefined && answer.status >= 500 && answer.status !== 503)).toEqual([]);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    expect(bot.stderr()).not.toContain('uncaught error');
  });
});
