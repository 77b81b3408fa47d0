import { type FakeHttpServer, type FakeResponse, json, startFakeHttpServer } from './fake-http-server.js';
import { type Answer, ScriptedQueue, isFakeResponse } from './scripted-queue.js';

// Tavily `POST /search` (tavily-python's test response shape): Bearer key, JSON body,
// `{"detail":{"error":…}}` errors with 400/401/432/433/429 + retry-after, and the keyless 429 shape.

export interface TavilyResultInput {
  url: string;
  title: string;
  content: string;
  score?: number;
  published_date?: string;
}

export function tavilyResult(input: TavilyResultInput): Record<string, unknown> {
  return { raw_content: null, score: 0.9, ...input };
}

export const tavilyErrors = {
  badRequest: (message = 'Invalid request body.'): FakeResponse => json(400, { detail: { error: message } }),
  unauthorized: (): FakeResponse => json(401, { detail: { error: 'Unauthorized: missing or invalid API key.' } }),
  planLimit: (): FakeResponse => json(432, { detail: { error: "This request exceeds your plan's set usage limit." } }),
  payAsYouGoLimit: (): FakeResponse => json(433, { detail: { error: 'This request exceeds the pay-as-you-go limit.' } }),
  rateLimited: (retryAfterSeconds: number): FakeResponse =>
    json(429, { detail: { error: 'Your request has been blocked due to excessive requests.' } }, { 'retry-after': String(retryAfterSeconds) }),
  keylessRateLimited: (retryAfterSeconds: number): FakeResponse =>
    json(429, {
      error: {
        code: 'rate_limited',
        message: 'Too many requests without an API key.',
        window: 'minute',
        retry_after_seconds: retryAfterSeconds,
        next_actions: ['Create a free API key at https://app.tavily.com'],
      },
    }),
};

export interface TavilyFakeOptions {
  apiKey: string;
  answer?: Answer<Record<string, unknown>>;
  /** A docs example once showed `response_time` as a string. */
  responseTimeAsString?: boolean;
}

export interface TavilyFake extends FakeHttpServer {
  script: ScriptedQueue;
}

export async function startTavilyFake(options: TavilyFakeOptions): Promise<TavilyFake> {
  const script = new ScriptedQueue();
  const server = await startFakeHttpServer((request) => {
    const queued = script.next();
    if (queued) return queued;
    if (request.method !== 'POST' || request.path !== '/search') return json(404, { detail: 'Not Found' });
    if (request.headers.authorization !== `Bearer ${options.apiKey}`) return tavilyErrors.unauthorized();
    let body: unknown;
    try {
      body = JSON.parse(request.body);
    } catch {
      return tavilyErrors.badRequest();
    }
    const query = typeof body === 'object' && body !== null && 'query' in body && typeof body.query === 'string' ? body.query : '';
    if (query === '') return tavilyErrors.badRequest('Query is missing.');
    const answer = options.answer
      ? options.answer(query, request)
      : [tavilyResult({ title: 'Tavily', url: 'https://tavily.com', content: 'Connect Your LLM to the Web.' })];
    if (isFakeResponse(answer)) return answer;
    return json(200, {
      query,
      follow_up_questions: null,
      answer: null,
      images: [],
      results: answer,
      response_time: options.responseTimeAsString ? '1.5' : 1.5,
      request_id: '123e4567-e89b-12d3-a456-426614174000',
    });
  });
  return { ...server, script };
}
