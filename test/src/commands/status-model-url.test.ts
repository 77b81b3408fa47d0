import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// MODEL_BASE_URL is an internal address: /status shows it to global admins only, through the whole app.

let fake: FakeModelServer | undefined;
let test: TestApp | undefined;
afterEach(async () => {
  await test?.close();
  await fake?.close();
  test = undefined;
  fake = undefined;
});

describe('/status and the model server address', () => {
  it.each([
    ['th', 'ที่อยู่แสดงเฉพาะผู้ดูแล'],
    ['en', 'address shown to admins only'],
  ] as const)('a member does not see it, an admin does (%s)', async (language, hidden) => {
    fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
    test = createTestApp({ modelUrl: fake.url, environment: { BOT_LANGUAGE: language, ADMIN_IDS: 'console:somsri' } });
    const member = (await test.ask('/status', { userId: 'somchai' })).replies[0]?.text ?? '';
    expect(member).toContain(`${hidden} (llama-server)`);
    expect(member).not.toContain(fake.url);
    expect(member).not.toContain('127.0.0.1');
    const listed = (await test.ask('/status', { userId: 'somsri' })).replies[0]?.text ?? '';
    expect(listed).toContain(`${fake.url} (llama-server)`);
    const owner = (await test.ask('/status')).replies[0]?.text ?? '';
    expect(owner).toContain(`${fake.url} (llama-server)`);
    expect(owner).not.toContain(hidden);
  });
});
