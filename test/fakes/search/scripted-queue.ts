import type { FakeResponse, RecordedRequest } from './fake-http-server.js';

/** Responses queued by a test (errors, 429s) are served first, in order; then the fake's normal answer. */
export class ScriptedQueue {
  private readonly pending: FakeResponse[] = [];

  push(...responses: FakeResponse[]): void {
    this.pending.push(...responses);
  }

  next(): FakeResponse | undefined {
    return this.pending.shift();
  }
}

export type Answer<Result> = (query: string, request: RecordedRequest) => Result[] | FakeResponse;

export function isFakeResponse(value: unknown): value is FakeResponse {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'status' in value && 'body' in value;
}
