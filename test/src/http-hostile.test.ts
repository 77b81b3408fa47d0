import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpLimits } from '../../src/http-limits.js';
import { requestPath, startHttpServer } from '../../src/http.js';
import { Metrics } from '../../src/metrics.js';
import type { WebhookRoute } from '../../src/shared/channel.js';
import { memoryLog } from '../support/memory-log.js';
import { rawRequest } from '../support/raw-http.js';

// What a hostile network can send the HTTP server (src/http.ts, http-webhook.ts): request targets new URL() threw
// on (that took the process down), checks that throw, bodies over the cap, more bodies than the gate lets in, and
// a sender too slow. Every request gets an answer or a clean close, and /healthz answers after.

let server: http.Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

interface Started {
  port: number;
  metrics: Metrics;
  records: ReturnType<typeof memoryLog>['records'];
}

async function start(
  options: { routes?: WebhookRoute[]; limits?: Partial<HttpLimits>; readiness?: () => Promise<never>; metrics?: Metrics } = {},
): Promise<Started> {
  const { log, records } = memoryLog('info');
  const metrics = options.metrics ?? new Metrics();
  server = await startHttpServer({
    port: 0,
    metrics,
    log,
    routes: options.routes ?? [],
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.readiness ? { readiness: options.readiness } : {}),
  });
  return { port: (server.address() as AddressInfo).port, metrics, records };
}

const healthy = async (port: number): Promise<number> => (await fetch(`http://127.0.0.1:${port}/healthz`)).status;

/** A route that reads its body and answers with its length; `entered` resolves each time a request reaches it. */
function echoRoute(maxBodyBytes: number, reached: string[] = []): WebhookRoute {
  return {
    method: 'POST',
    path: '/webhooks/echo',
    maxBodyBytes,
    handle: async (request, response) => {
      reached.push(String(request.headers['x-id'] ?? ''));
      let length = 0;
      for await (const chunk of request) length += (chunk as Buffer).length;
      response.writeHead(200, { 'content-type': 'text/plain' }).end(String(length));
    },
  };
}

describe('request targets', () => {
  it('reads the path of origin-form targets only', () => {
    expect(requestPath('/healthz?x=1')).toBe('/healthz');
    expect(requestPath('/webhooks/line')).toBe('/webhooks/line');
    for (const target of ['//[', 'http://[/', '*', '', 'healthz', undefined]) expect(requestPath(target)).toBeUndefined();
  });

  it('answers 400 to the targets that used to kill the process, and stays up', async () => {
    const { port, metrics } = await start({ routes: [echoRoute(1024)] });
    for (const target of ['//[', 'http://[/', '/\\[', '//[/webhooks/echo', 'http://[::1', '*']) {
      const answer = await rawRequest(port, [`GET ${target} HTTP/1.1\r\nHost: x\r\n\r\n`]);
      expect(answer.status, target).toBeGreaterThanOrEqual(400);
      expect(answer.status, target).toBeLessThan(500);
    }
    expect(await healthy(port)).toBe(200);
    expect(await metrics.registry.getSingleMetricAsString('saeng_http_refused_total')).toMatch(/reason="bad-target"} [1-9]/);
  });
});

describe('checks that fail', () => {
  it('/readyz 503 when the check throws (even synchronously), /metrics 500 when collecting fails, a route throwing at once 500', async () => {
    const metrics = new Metrics();
    metrics.registry.registerMetric({
      name: 'broken',
      get: () => Promise.reject(new Error('collect failed')),
      reset: () => undefined,
      get aggregator() {
        return 'sum' as const;
      },
    } as never);
    const throwing: WebhookRoute = {
      method: 'POST',
      path: '/webhooks/sync',
      handle: () => {
        throw new Error('thrown before any await');
      },
    };
    const { port, records } = await start({
      metrics,
      routes: [throwing],
      readiness: () => {
        throw new Error('readiness threw');
      },
    });
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(503);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(500);
    expect((await fetch(`http://127.0.0.1:${port}/webhooks/sync`, { method: 'POST' })).status).toBe(500);
    expect(await healthy(port)).toBe(200);
    expect(records.map((record) => record.msg)).toEqual(
      expect.arrayContaining(['readiness check failed', 'metrics collection failed', 'webhook handler failed']),
    );
  });
});

describe('webhook bodies', () => {
  it('refuses a declared length over the cap with 413 before the route runs, and the answer arrives whole', async () => {
    const reached: string[] = [];
    const { port } = await start({ routes: [echoRoute(1024, reached)] });
    const head = 'POST /webhooks/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n';
    const answer = await rawRequest(port, [head], { keepSending: { chunk: Buffer.alloc(10_000, 120), max: 100_000 } });
    expect([answer.status, answer.end]).toEqual([413, 'answered']);
    expect(reached).toEqual([]);
    const withoutBody = await rawRequest(port, ['GET /webhooks/echo HTTP/1.1\r\nHost: x\r\n\r\n']);
    expect(withoutBody.status).toBe(405);
  });

  it('a chunked body over the cap is counted as it arrives: 413, not a reset', async () => {
    const route: WebhookRoute = {
      method: 'POST',
      path: '/webhooks/capped',
      maxBodyBytes: 1024,
      handle: async (request, response) => {
        const { readRequestBody } = await import('../../adapters/common/read-request-body.js');
        const body = await readRequestBody(request, 1024);
        response.writeHead(body.kind === 'too-large' ? 413 : 200).end(body.kind);
      },
    };
    const { port } = await start({ routes: [route] });
    const chunk = Buffer.from(`400\r\n${'y'.repeat(0x400)}\r\n`);
    const answer = await rawRequest(port, ['POST /webhooks/capped HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n'], {
      keepSending: { chunk, max: 200 * chunk.length },
    });
    expect([answer.status, answer.end]).toEqual([413, 'answered']);
    expect(await healthy(port)).toBe(200);
  });

  it('lets in at most the gate’s bodies; one more with no room to wait is 503 with Retry-After; the first still completes', async () => {
    const reached: string[] = [];
    const { port } = await start({
      routes: [echoRoute(1024, reached)],
      limits: { webhookBodyRoom: { maxBodies: 1, maxBytes: 1024, maxWaiting: 0, maxWaitMs: 60_000 } },
    });
    const head = (id: string) => `POST /webhooks/echo HTTP/1.1\r\nHost: x\r\nX-Id: ${id}\r\nContent-Length: 10\r\n\r\n`;
    // The first holds the only place: its body is not finished yet.
    const first = rawRequestInTwo(port, head('first'), '12345', '67890');
    await waitFor(() => reached.includes('first'));
    const second = await rawRequest(port, [`${head('second')}1234567890`]);
    expect(second.status).toBe(503);
    expect(second.received.toLowerCase()).toContain('retry-after: 1');
    first.finish();
    expect((await first.answer).received).toMatch(/\r\n2\r\n10\r\n/);
    expect(reached).toEqual(['first']);
    // The place is free again.
    expect((await rawRequest(port, [`${head('third')}1234567890`])).status).toBe(200);
  });

  it('a request waiting for room gets it when a body finishes', async () => {
    const reached: string[] = [];
    const { port } = await start({
      routes: [echoRoute(1024, reached)],
      limits: { webhookBodyRoom: { maxBodies: 1, maxBytes: 1024, maxWaiting: 1, maxWaitMs: 60_000 } },
    });
    const head = (id: string) => `POST /webhooks/echo HTTP/1.1\r\nHost: x\r\nX-Id: ${id}\r\nContent-Length: 10\r\n\r\n`;
    const first = rawRequestInTwo(port, head('first'), '12345', '67890');
    await waitFor(() => reached.includes('first'));
    const second = rawRequest(port, [`${head('second')}1234567890`]);
    const third = await rawRequest(port, [`${head('third')}1234567890`]);
    expect(third.status).toBe(503);
    first.finish();
    expect((await second).status).toBe(200);
    expect(reached).toEqual(['first', 'second']);
  });

  it('a body that stops arriving gets 408 and its place back', async () => {
    const reached: string[] = [];
    const { port } = await start({
      routes: [echoRoute(1024, reached)],
      limits: { bodyTimeoutMs: 300, webhookBodyRoom: { maxBodies: 1, maxBytes: 1024, maxWaiting: 0, maxWaitMs: 1 } },
    });
    const stalled = await rawRequest(port, ['POST /webhooks/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345']);
    expect(stalled.status).toBe(408);
    expect((await rawRequest(port, ['POST /webhooks/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc'])).status).toBe(200);
  });
});

/** A request whose body is sent in two parts: the second only when the test calls finish(). */
function rawRequestInTwo(port: number, head: string, firstPart: string, secondPart: string): { answer: ReturnType<typeof rawRequest>; finish(): void } {
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  return { answer: rawRequest(port, [head + firstPart, finished, secondPart]), finish };
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let attempt = 0; attempt < 500 && !condition(); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error('condition never held');
}
