import type { LineCall } from './call-log.js';
import type { FakeLineState } from './state.js';

// The API route table: a method, a template with `:name` segments, and a handler returning a status and a JSON
// body or raw bytes. A handler throws LineApiError for LINE's error answers.

export interface RouteContext {
  state: FakeLineState;
  call: LineCall;
  params: Record<string, string>;
  body: unknown;
  /** The x-line-request-id this answer carries (a push remembers it for its retry key). */
  requestId: string;
  /** Signs the deliveries LINE itself makes (the webhook test). */
  channelSecret: string;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  /** Binary content instead of JSON. */
  bytes?: { data: Buffer; contentType: string };
  headers?: Record<string, string>;
}

export interface Route {
  method: 'GET' | 'POST';
  template: string;
  /** A promise only where LINE itself waits on something (the webhook test's delivery). */
  handle(context: RouteContext): RouteResult | Promise<RouteResult>;
}

export function ok(body: unknown): RouteResult {
  return { status: 200, body };
}

export function matchRoute(routes: readonly Route[], method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
  const segments = path.split('/');
  for (const route of routes) {
    if (route.method !== method) continue;
    const template = route.template.split('/');
    if (template.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const fits = template.every((part, index) => {
      const actual = segments[index] ?? '';
      if (!part.startsWith(':')) return part === actual;
      params[part.slice(1)] = actual;
      return actual.length > 0;
    });
    if (fits) return { route, params };
  }
  return undefined;
}
