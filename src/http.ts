import http from 'node:http';
import type { WebhookRoute } from './shared/channel.js';
import type { Logger } from './shared/log.js';
import type { Metrics } from './metrics.js';

/** GET /healthz: the process is alive and serving (always 200). */
export interface HealthAnswer {
  status: 'ok';
  uptimeSeconds: number;
  version: string;
}

/** GET /readyz: 200 when `ready`, else 503; `detail` names each part's state. */
export interface ReadinessAnswer {
  ready: boolean;
  detail: Record<string, unknown>;
}

export interface HttpServerOptions {
  port: number;
  /** HTTP_HOST: loopback unless the operator chooses otherwise. */
  host?: string;
  metrics: Metrics;
  /** Without it /healthz answers `{ status: 'ok' }` alone. */
  health?: () => HealthAnswer;
  /** Without it there is nothing to wait for: /readyz answers 200. */
  readiness?: () => Promise<ReadinessAnswer>;
  log: Logger;
  /** Platform webhooks (LINE, Telegram in webhook mode), from the adapters. */
  routes?: readonly WebhookRoute[];
}

/** GET /healthz, GET /readyz and GET /metrics on HTTP_PORT (loopback by default: put a reverse proxy in front for webhooks). */
export async function startHttpServer(options: HttpServerOptions): Promise<http.Server> {
  const host = options.host ?? '127.0.0.1';
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const routes = (options.routes ?? []).filter((candidate) => candidate.path === url.pathname);
    if (routes.length > 0) return serveWebhook(routes, request, response, options.log);
    if (request.method === 'GET' && url.pathname === '/healthz') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(options.health?.() ?? { status: 'ok' }));
      return;
    }
    if (request.method === 'GET' && url.pathname === '/readyz') {
      const readiness = options.readiness ?? (async () => ({ ready: true, detail: {} }));
      void readiness().then(
        (answer) => {
          response.writeHead(answer.ready ? 200 : 503, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ status: answer.ready ? 'ready' : 'not-ready', ...answer.detail }));
        },
        (error: unknown) => {
          options.log.warn({ error: String(error) }, 'readiness check failed');
          response.writeHead(503, { 'content-type': 'application/json' });
          response.end('{"status":"error"}');
        },
      );
      return;
    }
    if (request.method === 'GET' && url.pathname === '/metrics') {
      void options.metrics.registry.metrics().then((body) => {
        response.writeHead(200, { 'content-type': options.metrics.registry.contentType });
        response.end(body);
      });
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  // The port bound, which HTTP_PORT=0 leaves to the system.
  const address = server.address();
  options.log.info({ port: typeof address === 'object' && address ? address.port : options.port, host }, 'http server listening');
  return server;
}

/** Runs the route for the request's method; a failing handler answers 500 (the platform then retries the delivery). */
function serveWebhook(routes: readonly WebhookRoute[], request: http.IncomingMessage, response: http.ServerResponse, log: Logger): void {
  const route = routes.find((candidate) => candidate.method === request.method);
  if (!route) {
    response.writeHead(405, { allow: routes.map((candidate) => candidate.method).join(', '), 'content-type': 'text/plain' });
    response.end('method not allowed');
    return;
  }
  route.handle(request, response).catch((error: unknown) => {
    log.error({ path: route.path, error: String(error) }, 'webhook handler failed');
    if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
    if (!response.writableEnded) response.end();
  });
}
