import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../fakes/model-server.js';
import { createTestApp, lookupTool, type TestApp } from '../support/test-app.js';

// A turn that fails after some model calls still reports the server's figures of those calls (the `turn failed`
// log line and /metrics read TurnRecord.modelFigures): the work was done even if no answer came of it.

let model: FakeModelServer | undefined;
let test: TestApp | undefined;
afterEach(async () => {
  await test?.close();
  await model?.close();
  test = model = undefined;
});

describe('the model figures of a failed turn', () => {
  it('are those of the calls it made before the server failed', async () => {
    model = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
    test = createTestApp({ modelUrl: model.url, environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off' }, extraTools: [lookupTool()] });
    model.script({ toolCalls: [{ name: 'lookup', arguments: { query: 'เวลาเปิด' } }] }, { error: { status: 500, body: 'server exploded' } });
    const handled = await test.ask('ร้านเปิดกี่โมง');
    model.assertAllConsumed();
    expect(handled.turn?.stopReason).toBe('model-error');
    // One call answered (the fake's 12 cached and 5 generated tokens); the failed one reported nothing.
    expect(handled.turn?.modelFigures).toMatchObject({ cachedTokens: 12, generatedTokens: 5 });
  });
});
