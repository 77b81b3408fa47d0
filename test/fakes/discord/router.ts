import type { DiscordCall } from './call-log.js';
import type { UploadedFile } from './request-body.js';
import type { FakeDiscordState } from './state.js';

// The REST route table: a method, a template with `:name` segments, whether the bot token is required (interaction
// callbacks and webhook-token routes need none, as on Discord), and a handler returning status and body.

export interface RouteContext {
  state: FakeDiscordState;
  call: DiscordCall;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  files: UploadedFile[];
  /** The gateway url (`ws://127.0.0.1:P`) for GET /gateway/bot. */
  gatewayUrl: string;
  interactionDeadlineMs: number;
  interactionTokenLifetimeMs: number;
}

export interface RouteResult {
  status: number;
  body?: unknown;
}

export interface Route {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  template: string;
  auth: boolean;
  handle(context: RouteContext): RouteResult | Promise<RouteResult>;
}

export interface MatchedRoute {
  route: Route;
  params: Record<string, string>;
}

export function ok(body: unknown): RouteResult {
  return { status: 200, body };
}

export const noContent: RouteResult = { status: 204 };

export function matchRoute(routes: Route[], method: string, path: string): MatchedRoute | 'method-not-allowed' | undefined {
  const segments = path.split('/');
  let pathMatched = false;
  for (const route of routes) {
    const template = route.template.split('/');
    if (template.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const fits = template.every((part, index) => {
      const actual = segments[index] ?? '';
      if (!part.startsWith(':')) return part === actual;
      params[part.slice(1)] = actual;
      return actual.length > 0;
    });
    if (!fits) continue;
    pathMatched = true;
    if (route.method === method) return { route, params };
  }
  return pathMatched ? 'method-not-allowed' : undefined;
}
