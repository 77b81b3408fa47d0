import type { IncomingMessage, ServerResponse } from 'node:http';
import { lineErrors, LineApiError, type FailureResponse } from './api-error.js';
import type { CallLog, LineCall } from './call-log.js';
import type { SwitchedFailures } from '../common/switched-failures.js';
import { matchRoute, type Route, type RouteResult } from './router.js';
import type { FakeLineState } from './state.js';

// One API request: logged, then (in this order) a switched disconnect, a hold, the access token (401), the route
// (404), a switched failure, and the handler; a lost answer drops the socket after the handler did its work.
// Every answer carries an x-line-request-id, as LINE's do.

export interface HandlerDependencies {
  state: FakeLineState;
  log: CallLog;
  failures: SwitchedFailures<FailureResponse>;
  routes: readonly Route[];
  channelAccessToken: string;
  channelSecret: string;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function write(response: ServerResponse, result: RouteResult, requestId: string): void {
  const headers = { ...result.headers, 'x-line-request-id': requestId };
  if (result.bytes) {
    response.writeHead(result.status, { ...headers, 'content-type': result.bytes.contentType, 'content-length': String(result.bytes.data.length) });
    response.end(result.bytes.data);
    return;
  }
  const text = JSON.stringify(result.body ?? {});
  response.writeHead(result.status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  response.end(text);
}

function parseJson(raw: Buffer): { json: unknown } | undefined {
  if (raw.length === 0) return { json: undefined };
  try {
    return { json: JSON.parse(raw.toString('utf8')) as unknown };
  } catch {
    return undefined;
  }
}

function authOf(header: string | undefined, token: string): LineCall['auth'] {
  if (header === undefined) return 'missing';
  return header === `Bearer ${token}` ? 'channel' : 'wrong';
}

export async function handleApiRequest(dependencies: HandlerDependencies, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const { log, failures, state } = dependencies;
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const raw = await readBody(request);
  const parsed = parseJson(raw);
  const retryKey = request.headers['x-line-retry-key'];
  const call = log.record({
    method: request.method ?? 'GET',
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    auth: authOf(request.headers.authorization, dependencies.channelAccessToken),
    ...(typeof retryKey === 'string' ? { retryKey } : {}),
    body: parsed?.json,
  });
  const requestId = state.ids.requestId();
  const answer = (result: RouteResult): void => {
    log.settle(call, { status: result.status, body: result.bytes ? '<bytes>' : (result.body ?? {}), ...(result.headers ? { headers: result.headers } : {}) });
    write(response, result, requestId);
  };
  const fail = (error: LineApiError): void => answer({ status: error.status, body: error.body, headers: error.headers });

  if (failures.takeDisconnect(call.method, call.path)) {
    log.settle(call, { disconnected: true, processed: false });
    request.socket.destroy();
    return;
  }
  if (failures.takeHold(call.method, call.path)) {
    const gone = new AbortController();
    response.on('close', () => gone.abort());
    log.settle(call, { held: true });
    if (!(await failures.waitForRelease(gone.signal))) return log.settle(call, { disconnected: true, processed: false });
  }
  if (call.auth === 'missing') return fail(lineErrors.authorizationRequired());
  if (call.auth === 'wrong') return fail(lineErrors.authenticationFailed());
  const matched = matchRoute(dependencies.routes, call.method, call.path);
  if (!matched) return fail(lineErrors.notFound());
  const failure = failures.takeFailure(call.method, call.path);
  if (failure) return answer({ status: failure.status, body: failure.body, ...(failure.headers ? { headers: failure.headers } : {}) });
  if (!parsed) return fail(lineErrors.unparsableBody());
  let result: RouteResult;
  try {
    result = await matched.route.handle({ state, call, params: matched.params, body: parsed.json, requestId, channelSecret: dependencies.channelSecret });
  } catch (error) {
    if (!(error instanceof LineApiError)) throw error;
    return fail(error);
  }
  if (failures.takeLostAnswer(call.method, call.path)) {
    log.settle(call, { disconnected: true, processed: true });
    request.socket.destroy();
    return;
  }
  answer(result);
}
