import type http from 'node:http';
import type { HttpLimits } from './http-limits.js';
import type { HttpRefusal } from './metrics.js';
import type { WebhookRoute } from './shared/channel.js';
import type { Logger } from './shared/log.js';
import type { WebhookBodyRoom } from './webhook-body-room.js';

// One webhook request through the server's limits (src/http-limits.ts): the method, the declared length against the
// route's cap, room to read (src/webhook-body-room.ts), a deadline for the body, then the route. Every refusal is an
// answer; a failing route answers 500 (the platform then retries the delivery).

export interface WebhookServing {
  bodyRoom: WebhookBodyRoom;
  limits: HttpLimits;
  log: Logger;
  refused(reason: HttpRefusal): void;
}

/** A plain-text answer; the rest of a refused body is discarded while it goes out (see `lingerAfterAnswer`). */
export function refuse(response: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  response.end(text);
}

/**
 * Answered before the body was all read (a refusal, a 401 before the body): Node discards the rest, and the socket
 * is closed once it is done or `lingerMs` passed. Closing at once would make the kernel reset the connection over
 * the unread bytes, and the client could lose the answer with it (RFC 9112 §9.6).
 */
export function lingerAfterAnswer(request: http.IncomingMessage, lingerMs: number): void {
  if (request.complete) return;
  const socket = request.socket;
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  request.once('end', () => clearTimeout(timer));
  socket.once('close', () => clearTimeout(timer));
}

/** The declared Content-Length; 0 without a body; undefined when it is chunked (Node has already refused a malformed one). */
function declaredLength(request: http.IncomingMessage): number | undefined {
  const header = request.headers['content-length'];
  if (header !== undefined) return Number(header);
  return request.headers['transfer-encoding'] === undefined ? 0 : undefined;
}

export function serveWebhook(routes: readonly WebhookRoute[], request: http.IncomingMessage, response: http.ServerResponse, serving: WebhookServing): void {
  const route = routes.find((candidate) => candidate.method === request.method);
  if (!route) {
    response.writeHead(405, { allow: routes.map((candidate) => candidate.method).join(', '), 'content-type': 'text/plain' });
    response.end('method not allowed');
    return;
  }
  const declared = declaredLength(request);
  const cap = route.maxBodyBytes ?? 0;
  if (declared !== undefined && declared > cap) {
    serving.refused('too-large');
    return refuse(response, 413, 'body too large');
  }
  if (declared === 0) return run(route, request, response, serving);
  // Paused until let in: a waiting body stays in the kernel's socket buffer, not in the heap.
  request.pause();
  void serving.bodyRoom.enter(declared ?? cap).then((release) => {
    if (!release) {
      serving.refused('busy');
      return refuse(response, 503, 'busy, try again', { 'retry-after': '1' });
    }
    response.once('close', release);
    const deadline = setTimeout(() => {
      if (request.complete) return;
      serving.refused('too-slow');
      // Closed after the answer: the rest of a body this slow is not waited for.
      refuse(response, 408, 'request body too slow', { connection: 'close' });
    }, serving.limits.bodyTimeoutMs);
    response.once('close', () => clearTimeout(deadline));
    run(route, request, response, serving);
  });
}

function run(route: WebhookRoute, request: http.IncomingMessage, response: http.ServerResponse, serving: WebhookServing): void {
  // A route that throws before its first await is caught here too.
  Promise.resolve()
    .then(() => route.handle(request, response))
    .catch((error: unknown) => {
      // A body the deadline or the client cut off is no failure of the route.
      if (request.destroyed && !request.complete) {
        serving.log.info({ path: route.path }, 'webhook request ended before its body arrived');
      } else {
        serving.log.error({ path: route.path, error: String(error) }, 'webhook handler failed');
      }
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      if (!response.writableEnded) response.end();
    });
}
