import { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback HTTP server that records every request and answers from a handler; the base of the
// SearXNG, Brave and Tavily fakes.

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeResponse {
  status: number;
  headers?: Record<string, string>;
  body: string;
  /** Hold the answer this long (a provider that hangs; the client should time out first). */
  delayMs?: number;
}

export type FakeHandler = (request: RecordedRequest) => FakeResponse;

export interface FakeHttpServer {
  url: string;
  requests: RecordedRequest[];
  /** Most requests that were in flight at the same moment. */
  maxInFlight(): number;
  close(): Promise<void>;
}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): FakeResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) };
}

export function text(status: number, body: string, contentType = 'text/plain; charset=utf-8', headers: Record<string, string> = {}): FakeResponse {
  return { status, headers: { 'content-type': contentType, ...headers }, body };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

export async function startFakeHttpServer(handler: FakeHandler): Promise<FakeHttpServer> {
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    void readBody(request).then((body) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const recorded: RecordedRequest = { method: request.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: request.headers, body };
      requests.push(recorded);
      let answer: FakeResponse;
      try {
        answer = handler(recorded);
      } catch (error) {
        answer = text(599, `fake handler failed: ${String(error)}`);
      }
      const send = () => {
        inFlight -= 1;
        if (response.destroyed) return;
        response.writeHead(answer.status, answer.headers ?? {});
        response.end(answer.body);
      };
      if (!answer.delayMs) return send();
      const timer = setTimeout(() => {
        timers.delete(timer);
        send();
      }, answer.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address: string | AddressInfo | null = server.address();
  if (address === null || typeof address === 'string') throw new Error('fake server has no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    maxInFlight: () => maxInFlight,
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
