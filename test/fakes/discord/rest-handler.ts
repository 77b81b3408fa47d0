import type { IncomingMessage, ServerResponse } from 'node:http';
import { discordErrors, DiscordHttpError, rateLimited, type FailureResponse } from './api-error.js';
import type { CallLog, DiscordCall } from './call-log.js';
import type { SwitchedFailures } from '../common/switched-failures.js';
import { majorParameter, RateLimiter } from './rate-limits.js';
import { parseBody, readBody } from './request-body.js';
import { matchRoute, type Route, type RouteContext } from './router.js';
import type { FakeDiscordState } from './state.js';

// One REST request under /api/v10: logged, then (in this order) a switched disconnect, the route, the bot token
// (401 unless the route needs none), a switched failure, the route's rate-limit bucket, and the handler. Every
// answer of a bucketed route carries the X-RateLimit-* headers. Attachment files are served under /cdn and /media.

export interface RestDependencies {
  state: FakeDiscordState;
  log: CallLog;
  failures: SwitchedFailures<FailureResponse>;
  limiter: RateLimiter;
  routes: Route[];
  token: string;
  context: Pick<RouteContext, 'gatewayUrl' | 'interactionDeadlineMs' | 'interactionTokenLifetimeMs'>;
}

const apiPrefix = '/api/v10';

/** discord.js sends `@original` as `%40original`; the log and the patterns use the decoded form. */
function decodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
}

function write(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (status === 204 || body === undefined) {
    response.writeHead(status, headers);
    response.end();
    return;
  }
  const text = JSON.stringify(body);
  response.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  response.end(text);
}

function serveAttachment(dependencies: RestDependencies, url: URL, response: ServerResponse): void {
  const stored = dependencies.state.attachments.serve(url.pathname.replace(/^\/(?:cdn|media)/, ''), url.searchParams);
  if (!stored) return write(response, 404, undefined);
  response.writeHead(200, { 'content-type': stored.contentType, 'content-length': String(stored.bytes.length) });
  response.end(stored.bytes);
}

/** A switched 429 gets the called route's bucket and an absolute reset, as Discord's would carry. */
function completeFailure(failure: FailureResponse, template: string, now: number): FailureResponse {
  const headers = { ...failure.headers };
  if (failure.status === 429 && headers['X-RateLimit-Remaining'] !== undefined) {
    headers['X-RateLimit-Bucket'] ??= RateLimiter.bucketHash(template);
    headers['X-RateLimit-Reset'] ??= ((now + Number(headers['X-RateLimit-Reset-After'] ?? 0) * 1000) / 1000).toFixed(3);
  }
  return { ...failure, headers };
}

async function answer(dependencies: RestDependencies, request: IncomingMessage, response: ServerResponse, call: DiscordCall, url: URL): Promise<void> {
  const { log, state } = dependencies;
  const settle = (status: number, body: unknown, headers: Record<string, string> = {}): void => {
    log.settle(call, body === undefined ? { status } : { status, body });
    write(response, status, body, headers);
  };
  if (dependencies.failures.takeDisconnect(call.method, call.path)) {
    log.settle(call, { disconnected: true });
    request.socket.destroy();
    return;
  }
  if (dependencies.failures.takeHold(call.method, call.path)) {
    const gone = new AbortController();
    response.on('close', () => gone.abort());
    log.settle(call, { held: true });
    if (!(await dependencies.failures.waitForRelease(gone.signal))) return void (call.outcome = { disconnected: true });
  }
  const matched = matchRoute(dependencies.routes, call.method, call.path);
  if (matched === undefined) return settle(404, discordErrors.notFound().body);
  if (matched === 'method-not-allowed') return settle(405, discordErrors.methodNotAllowed().body);
  const { route, params } = matched;
  if (route.auth && call.auth !== 'bot') return settle(401, discordErrors.unauthorized().body);
  const failure = dependencies.failures.takeFailure(call.method, call.path);
  if (failure) {
    const complete = completeFailure(failure, route.template, state.clock());
    return settle(complete.status, complete.body, complete.headers);
  }
  const bucketed = !route.template.startsWith('/interactions/');
  const limit = bucketed ? dependencies.limiter.take(`${route.method} ${route.template}`, majorParameter(params), Date.now()) : undefined;
  if (limit?.exceeded) {
    const retryAfter = Number(limit.headers['X-RateLimit-Reset-After']);
    const limited = rateLimited({ retryAfter });
    return settle(429, limited.body, { ...limit.headers, 'Retry-After': String(Math.ceil(retryAfter)), 'X-RateLimit-Scope': 'user' });
  }
  const headers = limit?.headers ?? {};
  try {
    const result = await route.handle({ ...dependencies.context, state, call, params, query: url.searchParams, body: call.body, files: call.files });
    settle(result.status, result.body, headers);
  } catch (error) {
    if (!(error instanceof DiscordHttpError)) throw error;
    settle(error.status, error.body, headers);
  }
}

export async function handleRest(dependencies: RestDependencies, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  if (/^\/(?:cdn|media)\/attachments\//.test(url.pathname) && request.method === 'GET') return serveAttachment(dependencies, url, response);
  if (!url.pathname.startsWith(`${apiPrefix}/`)) return write(response, 404, discordErrors.notFound().body);
  const raw = await readBody(request);
  const authorization = request.headers.authorization;
  const auth = authorization === undefined ? 'missing' : authorization === `Bot ${dependencies.token}` ? 'bot' : 'wrong';
  const contentType = request.headers['content-type'] ?? '';
  const base = {
    method: request.method ?? 'GET',
    path: decodePath(url.pathname.slice(apiPrefix.length)),
    query: Object.fromEntries(url.searchParams),
    auth,
    contentType,
  } as const;
  let call: DiscordCall;
  try {
    const parsed = await parseBody(contentType, raw);
    call = dependencies.log.record({ ...base, body: parsed.json, files: parsed.files });
  } catch (error) {
    if (!(error instanceof DiscordHttpError)) throw error;
    call = dependencies.log.record({ ...base, body: undefined, files: [] });
    dependencies.log.settle(call, { status: error.status, body: error.body });
    return write(response, error.status, error.body);
  }
  await answer(dependencies, request, response, call, url);
}
