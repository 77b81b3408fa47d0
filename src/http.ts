import http from 'node:http';
import type { Logger } from './shared/log.js';
import type { Metrics } from './metrics.js';

export interface HttpServerOptions {
  port: number;
  metrics: Metrics;
  health: () => Promise<{ ok: boolean; detail: Record<string, unknown> }>;
  log: Logger;
  /** Platform webhooks (LINE, Telegram) mount here later: path → handler. */
  routes?: ReadonlyMap<string, http.RequestListener>;
}

/** GET /healthz and GET /metrics on HTTP_PORT (loopback by default: put a reverse proxy in front for webhooks). */
export async function startHttpServer(options: HttpServerOptions, host = '127.0.0.1'): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const route = options.routes?.get(url.pathname);
    if (route) return route(request, response);
    if (request.method === 'GET' && url.pathname === '/healthz') {
      void options.health().then(
        (health) => {
          response.writeHead(health.ok ? 200 : 503, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ status: health.ok ? 'ok' : 'degraded', ...health.detail }));
        },
        () => {
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
  options.log.info({ port: options.port, host }, 'http server listening');
  return server;
}
