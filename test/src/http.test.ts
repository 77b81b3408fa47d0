import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer } from '../../src/http.js';
import { Metrics } from '../../src/metrics.js';
import type { WebhookRoute } from '../../src/shared/channel.js';
import { memoryLog } from '../support/memory-log.js';

// Adapters' webhook routes are mounted next to /healthz, /readyz and /metrics.

let server: http.Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

async function start(routes: WebhookRoute[], ready = true) {
  const { log, records } = memoryLog('error');
  server = await startHttpServer({
    port: 0,
    metrics: new Metrics(),
    log,
    routes,
    health: () => ({ status: 'ok', uptimeSeconds: 5, version: '1.2.3' }),
    readiness: async () => ({ ready, detail: { modelServer: { reachable: ready } } }),
  });
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}`, records };
}

describe('http server', () => {
  it('hands a webhook request to its route, by method and path', async () => {
    const bodies: string[] = [];
    const { url } = await start([
      {
        method: 'POST',
        path: '/webhooks/line',
        maxBodyBytes: 1024,
        handle: async (request, response) => {
          let body = '';
          for await (const chunk of request) body += String(chunk);
          bodies.push(body);
          response.writeHead(200).end('ok');
        },
      },
    ]);
    const posted = await fetch(`${url}/webhooks/line`, { method: 'POST', body: '{"events":[]}' });
    expect([posted.status, await posted.text()]).toEqual([200, 'ok']);
    expect(bodies).toEqual(['{"events":[]}']);
    const wrongMethod = await fetch(`${url}/webhooks/line`);
    expect([wrongMethod.status, wrongMethod.headers.get('allow')]).toEqual([405, 'POST']);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    expect((await fetch(`${url}/webhooks/other`, { method: 'POST' })).status).toBe(404);
  });

  it('/healthz is 200 while serving even when not ready; /readyz is 503 then, with its detail', async () => {
    const { url } = await start([], false);
    const health = await fetch(`${url}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok', uptimeSeconds: 5, version: '1.2.3' }]);
    const ready = await fetch(`${url}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([503, { status: 'not-ready', modelServer: { reachable: false } }]);
  });

  it('answers 500 when a route fails, so the platform retries the delivery', async () => {
    const { url, records } = await start([
      {
        method: 'POST',
        path: '/webhooks/telegram',
        handle: async () => {
          throw new Error('boom');
        },
      },
    ]);
    expect((await fetch(`${url}/webhooks/telegram`, { method: 'POST' })).status).toBe(500);
    expect(records).toMatchObject([{ msg: 'webhook handler failed', path: '/webhooks/telegram' }]);
  });
});
