import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { type FakeHttpServer, type FakeResponse, json, startFakeHttpServer, text } from './fake-http-server.js';
import { type Answer, ScriptedQueue, isFakeResponse } from './scripted-queue.js';

// Brave Web Search: `GET /res/v1/web/search` in the captured response shape, with its
// validation (422 for `country=TH`, `ui_lang=th-TH`, `search_lang=zh`; invalid token is 422 too), the
// JSON 429 with X-RateLimit-* headers, and responses without `web`.

const capturedPath = new URL('../../fixtures/search/brave-python.json', import.meta.url);
const captured = z
  .object({ web: z.object({ results: z.array(z.record(z.string(), z.unknown())) }).passthrough() })
  .passthrough()
  .parse(JSON.parse(readFileSync(capturedPath, 'utf8')));

export const capturedBraveResults = captured.web.results;

const countries = new Set('ALL AR AU AT BE BR CA CL DK FI FR DE HK IN ID IT JP KR MY MX NL NZ NO CN PL PT PH RU SA ZA ES SE CH TW TR GB US'.split(' '));
const searchLanguages = new Set([
  'ar',
  'eu',
  'bn',
  'bg',
  'ca',
  'zh-hans',
  'zh-hant',
  'hr',
  'cs',
  'da',
  'nl',
  'en',
  'en-gb',
  'et',
  'fi',
  'fr',
  'gl',
  'de',
  'gu',
  'he',
  'hi',
  'hu',
  'is',
  'it',
  'jp',
  'kn',
  'ko',
  'lv',
  'lt',
  'ms',
  'ml',
  'mr',
  'nb',
  'pl',
  'pt-br',
  'pt-pt',
  'pa',
  'ro',
  'ru',
  'sr',
  'sk',
  'sl',
  'es',
  'sv',
  'ta',
  'te',
  'th',
  'tr',
  'uk',
  'vi',
]);
const uiLanguages = new Set([
  'es-AR',
  'en-AU',
  'de-AT',
  'nl-BE',
  'fr-BE',
  'pt-BR',
  'en-CA',
  'fr-CA',
  'es-CL',
  'da-DK',
  'fi-FI',
  'fr-FR',
  'de-DE',
  'zh-HK',
  'en-IN',
  'en-ID',
  'it-IT',
  'ja-JP',
  'ko-KR',
  'en-MY',
  'es-MX',
  'nl-NL',
  'en-NZ',
  'no-NO',
  'zh-CN',
  'pl-PL',
  'en-PH',
  'ru-RU',
  'en-ZA',
  'es-ES',
  'sv-SE',
  'fr-CH',
  'de-CH',
  'zh-TW',
  'tr-TR',
  'en-GB',
  'en-US',
  'es-US',
]);

export interface BraveResultInput {
  url: string;
  title: string;
  description?: string;
  page_age?: string;
  age?: string;
}

/** A web result in Brave's shape (HTML in `description` is kept as given). */
export function braveResult(input: BraveResultInput): Record<string, unknown> {
  const url = new URL(input.url);
  return {
    title: input.title,
    url: input.url,
    is_source_local: false,
    is_source_both: false,
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.page_age ? { page_age: input.page_age } : {}),
    ...(input.age ? { age: input.age } : {}),
    profile: { name: url.hostname, url: input.url, long_name: url.hostname, img: 'https://imgs.search.brave.com/fake' },
    language: 'en',
    family_friendly: true,
    type: 'search_result',
    subtype: 'generic',
    meta_url: { scheme: 'https', netloc: url.hostname.replace(/^www\./, ''), hostname: url.hostname, favicon: '', path: url.pathname },
  };
}

function validationError(location: string, input: string, expected: string): FakeResponse {
  return json(422, {
    type: 'ErrorResponse',
    error: {
      id: 'c5f5f5e2-0000-4000-8000-000000000422',
      status: 422,
      code: 'VALIDATION',
      detail: 'Unable to validate request parameter(s)',
      meta: { errors: [{ type: 'enum', loc: ['query', location], msg: `Input should be ${expected}`, input, ctx: { expected } }] },
    },
    time: 1714600000,
  });
}

export const braveErrors = {
  invalidToken: (): FakeResponse =>
    json(422, {
      type: 'ErrorResponse',
      error: {
        id: 'c5f5f5e2-0000-4000-8000-000000000001',
        status: 422,
        code: 'SUBSCRIPTION_TOKEN_INVALID',
        detail: 'The provided subscription token is invalid.',
        meta: { component: 'authentication' },
      },
      time: 1714600000,
    }),
  rateLimited: (resetSeconds = 1): FakeResponse =>
    json(
      429,
      {
        type: 'ErrorResponse',
        error: {
          id: 'c5f5f5e2-0000-4000-8000-000000000429',
          status: 429,
          code: 'RATE_LIMITED',
          detail: 'Request rate limit exceeded for plan',
          meta: { plan: 'Free', rate_limit: 1, rate_current: 1, quota_limit: 2000, quota_current: 15, component: 'rate_limiter' },
        },
        time: 1714600000,
      },
      {
        'x-ratelimit-limit': '1, 15000',
        'x-ratelimit-policy': '1;w=1, 15000;w=2592000',
        'x-ratelimit-remaining': '0, 14985',
        'x-ratelimit-reset': `${resetSeconds}, 1419704`,
      },
    ),
  gatewayHtml: (): FakeResponse => text(502, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html'),
};

export interface BraveFakeOptions {
  apiKey: string;
  answer?: Answer<Record<string, unknown>>;
  /** Leave `web` out of the response (Brave does when it has no web results). */
  omitWeb?: boolean;
  news?: Record<string, unknown>[];
}

export interface BraveFake extends FakeHttpServer {
  script: ScriptedQueue;
}

export async function startBraveFake(options: BraveFakeOptions): Promise<BraveFake> {
  const script = new ScriptedQueue();
  const server = await startFakeHttpServer((request) => {
    const queued = script.next();
    if (queued) return queued;
    if (request.path !== '/res/v1/web/search') return json(404, { type: 'ErrorResponse', error: { status: 404, code: 'NOT_FOUND' } });
    if (request.headers['x-subscription-token'] !== options.apiKey) return braveErrors.invalidToken();
    const country = request.query.get('country');
    if (country !== null && !countries.has(country.toUpperCase())) return validationError('country', country, 'ALL, AR, AU, …, US');
    const searchLang = request.query.get('search_lang');
    if (searchLang !== null && !searchLanguages.has(searchLang)) return validationError('search_lang', searchLang, "'ar', 'eu', …, 'vi'");
    const uiLang = request.query.get('ui_lang');
    if (uiLang !== null && !uiLanguages.has(uiLang)) return validationError('ui_lang', uiLang, "'es-AR', 'en-AU', …, 'es-US'");
    const query = request.query.get('q') ?? '';
    const answer = options.answer ? options.answer(query, request) : capturedBraveResults;
    if (isFakeResponse(answer)) return answer;
    const { web, ...rest } = captured;
    return json(200, {
      ...rest,
      query: { original: query, is_navigational: false, is_news_breaking: false, country: 'us', more_results_available: true },
      ...(options.news ? { news: { type: 'news', results: options.news } } : { news: undefined }),
      ...(options.omitWeb ? {} : { web: { ...web, results: answer } }),
    });
  });
  return { ...server, script };
}
