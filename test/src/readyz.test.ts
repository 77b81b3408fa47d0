import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer } from '../../src/http.js';
import { Metrics } from '../../src/metrics.js';
import { PlatformStates } from '../../src/platforms.js';
import { healthAnswer, readinessAnswer } from '../../src/readiness.js';
import { startFakeModelServer, type FakeModelServer } from '../fakes/model-server.js';
import { memoryLog } from '../support/memory-log.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

// /healthz (alive) and /readyz (able to work) over HTTP, wired to a whole app as src/service.ts wires them.

const noModelServer = 'http://127.0.0.1:9/v1';
const opened: { server?: http.Server; test?: TestApp; fake?: FakeModelServer } = {};

afterEach(async () => {
  opened.server?.closeAllConnections();
  opened.server?.close();
  await opened.test?.close();
  await opened.fake?.close();
  delete opened.server;
  delete opened.test;
  delete opened.fake;
});

async function serve(modelUrl: string, platforms = new PlatformStates()) {
  const test = createTestApp({ modelUrl, environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off' } });
  opened.test = test;
  const server = await startHttpServer({
    port: 0,
    metrics: new Metrics(),
    log: memoryLog('error').log,
    health: healthAnswer,
    readiness: () => readinessAnswer(test.app, platforms),
  });
  opened.server = server;
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}`, test };
}

describe('/healthz and /readyz', () => {
  it('no model server: /healthz 200 (alive), /readyz 503 naming the unreachable server, the rest reported', async () => {
    const { url } = await serve(noModelServer);
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    const alive = (await health.json()) as { status: string; uptimeSeconds: number; version: string };
    expect(alive).toMatchObject({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    expect(alive.uptimeSeconds).toBeGreaterThanOrEqual(0);

    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      status: 'not-ready',
      modelServer: { reachable: false, server: 'unreachable' },
      platforms: {},
      stores: { state: true, knowledge: true, inbound: true },
      queue: { pending: 0, oldestPendingAgeSeconds: 0 },
      ocr: { available: expect.any(Boolean) },
    });
  });

  it('with a model server and every platform running: 200 with its capabilities; a failed platform makes it 503', async () => {
    opened.fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
    const platforms = new PlatformStates();
    platforms.set('telegram', 'running');
    const { url } = await serve(opened.fake.url, platforms);
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: 'ready',
      modelServer: { reachable: true, server: 'llama-server', tools: true, vision: false, toolsSource: 'config', visionSource: 'config' },
      platforms: { telegram: 'running' },
      stores: { state: true, knowledge: true, inbound: true },
      queue: { pending: 0, oldestPendingAgeSeconds: 0 },
    });
    // OCR is optional: whatever this machine has, it is named and it does not decide readiness.
    expect(body.ocr).toHaveProperty('available');

    // One Telegram poller among several processes: this one waits for the lease — ready, and shown as standby.
    let role: 'running' | 'standby' = 'standby';
    platforms.set('telegram', 'running', () => role);
    const standby = await fetch(`${url}/readyz`);
    expect(standby.status).toBe(200);
    expect(await standby.json()).toMatchObject({ status: 'ready', platforms: { telegram: 'standby' } });
    role = 'running';
    expect(await (await fetch(`${url}/readyz`)).json()).toMatchObject({ platforms: { telegram: 'running' } });

    platforms.set('telegram', 'failed', () => 'running');
    const failed = await fetch(`${url}/readyz`);
    expect(failed.status).toBe(503);
    expect(await failed.json()).toMatchObject({ status: 'not-ready', platforms: { telegram: 'failed' } });
  });

  it('a closed store makes /readyz 503 and names it', async () => {
    opened.fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
    const { url, test } = await serve(opened.fake.url);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    test.app.storage.close();
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ stores: { state: false, knowledge: true, inbound: true } });
  });

  it('a model server that stops after detection: /readyz turns 503 (detection is cached, reachability is not)', async () => {
    const fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
    opened.fake = fake;
    const { url } = await serve(fake.url);
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    await fake.close();
    delete opened.fake;
    const after = await fetch(`${url}/readyz`);
    expect(after.status).toBe(503);
    expect(await after.json()).toMatchObject({ modelServer: { reachable: false } });
  });
});
