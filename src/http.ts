import http from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { defaultHttpLimits, type HttpLimits } from './http-limits.js';
import { lingerAfterAnswer, refuse, serveWebhook, type WebhookServing } from './http-webhook.js';
import type { WebhookRoute } from './shared/channel.js';
import type { Logger } from './shared/log.js';
import type { Metrics } from './metrics.js';
import { isAdminPath, type AdminSite } from './web/admin-site.js';
import { WebhookBodyRoom } from './webhook-body-room.js';

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
  /** The admin web page (src/web/admin-site.ts), answered under /admin. */
  admin?: AdminSite;
  /** Tests use smaller ones; the bot runs with src/http-limits.ts's defaults. */
  limits?: Partial<HttpLimits>;
}

/** The path of an origin-form request target (`/path?query`); undefined for anything else (`*`, `http://…`, `//[`). */
export function requestPath(target: string | undefined): string | undefined {
  if (target === undefined || !target.startsWith('/') || target.startsWith('//')) return undefined;
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

function json(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/**
 * GET /healthz, GET /readyz, GET /metrics and the admin page (/admin) on HTTP_PORT (loopback by default: put a reverse proxy in front for
 * webhooks). Hostile by default: a malformed request is a 4xx, a failing check a 5xx, never a thrown exception.
 */
export async function startHttpServer(options: HttpServerOptions): Promise<http.Server> {
  const host = options.host ?? '127.0.0.1';
  const limits: HttpLimits = { ...defaultHttpLimits, ...options.limits };
  const serving: WebhookServing = {
    bodyRoom: new WebhookBodyRoom(limits.webhookBodyRoom),
    limits,
    log: options.log,
    refused: (reason) => options.metrics.recordHttpRefused(reason),
  };
  const routes = options.routes ?? [];

  const answer = (request: http.IncomingMessage, response: http.ServerResponse): void => {
    const path = requestPath(request.url);
    if (path === undefined) {
      serving.refused('bad-target');
      return refuse(response, 400, 'bad request target');
    }
    const matching = routes.filter((candidate) => candidate.path === path);
    if (matching.length > 0) return serveWebhook(matching, request, response, serving);
    if (options.admin && isAdminPath(path)) return options.admin.handle(request, response, path);
    if (request.method === 'GET' && path === '/healthz') return json(response, 200, options.health?.() ?? { status: 'ok' });
    if (request.method === 'GET' && path === '/readyz') return void answerReadiness(response, options);
    if (request.method === 'GET' && path === '/metrics') return void answerMetrics(response, options);
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('not found');
  };

  const serverOptions: http.ServerOptions = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: limits.timeoutCheckMs,
  };
  const server = http.createServer(serverOptions, (request, response) => {
    response.once('finish', () => lingerAfterAnswer(request, limits.lingerMs));
    // A write after the end or to a socket gone is an 'error' event: never an uncaught one.
    response.on('error', (error) => options.log.warn({ path: requestPath(request.url), error: String(error) }, 'http response failed'));
    try {
      answer(request, response);
    } catch (error) {
      options.log.error({ path: requestPath(request.url), error: String(error) }, 'http request failed');
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      if (!response.writableEnded) response.end();
    }
  });
  server.maxConnections = limits.maxConnections;
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => answerClientError(error, socket, limits.lingerMs));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  // Later errors (EMFILE on accept…) must not become an uncaught 'error' event.
  server.on('error', (error) => options.log.error({ error: String(error) }, 'http server error'));
  // The port bound, which HTTP_PORT=0 leaves to the system.
  const address = server.address();
  options.log.info({ port: typeof address === 'object' && address ? address.port : options.port, host }, 'http server listening');
  return server;
}

/** Node's status for a request it could not parse; 400 for the rest. */
const clientErrorStatus: Record<string, number> = {
  HPE_HEADER_OVERFLOW: 431,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
};

/**
 * A request Node could not parse (a bad request line, header or chunk) or one past the time-outs: its status, then
 * the connection closed once the rest was discarded or `lingerMs` passed, like the refusals (a reset could lose
 * the answer). A socket that already carried an answer or is gone is just closed.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, lingerMs: number): void {
  if (error.code === 'ECONNRESET' || !socket.writable || (socket as Socket).bytesWritten > 0) {
    socket.destroy();
    return;
  }
  const status = clientErrorStatus[error.code ?? ''] ?? 400;
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.resume();
  setTimeout(() => socket.destroy(), lingerMs).unref();
}

async function answerReadiness(response: http.ServerResponse, options: HttpServerOptions): Promise<void> {
  try {
    const answer = options.readiness ? await options.readiness() : { ready: true, detail: {} };
    json(response, answer.ready ? 200 : 503, { status: answer.ready ? 'ready' : 'not-ready', ...answer.detail });
  } catch (error) {
    options.log.warn({ error: String(error) }, 'readiness check failed');
    if (!response.headersSent) json(response, 503, { status: 'error' });
  }
}

async function answerMetrics(response: http.ServerResponse, options: HttpServerOptions): Promise<void> {
  try {
    const body = await options.metrics.registry.metrics();
    response.writeHead(200, { 'content-type': options.metrics.registry.contentType });
    response.end(body);
  } catch (error) {
    options.log.warn({ error: String(error) }, 'metrics collection failed');
    if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
    if (!response.writableEnded) response.end();
  }
}
