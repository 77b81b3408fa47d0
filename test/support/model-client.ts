import { createModelClient, type ModelClient, type ModelClientOptions } from '../../agent/model/index.js';
import { silentLogger } from '../../src/shared/log.js';
import type { FakeModelServer } from '../fakes/model-server.js';

type DetectedServer = ReturnType<NonNullable<ModelClientOptions['server']>>;

/** A model client against a fake, without retries, told which server kind was detected (as the app's capabilities tell it). */
export function clientOfKind(fake: FakeModelServer, server: DetectedServer, maxTokens = 64): ModelClient {
  return createModelClient({
    baseUrl: fake.url,
    apiKey: 'no-key',
    model: 'qwen3.5-2b',
    timeoutMs: 5_000,
    retries: 0,
    maxTokens,
    log: silentLogger(),
    server: () => server,
  });
}
