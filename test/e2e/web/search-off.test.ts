import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSearxngFake, type SearxngFake } from '../../fakes/search/searxng-fake.js';
import { startFakeModelServer, type FakeModelServer, type RequestBody } from '../../fakes/model-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// Without a usable search provider the web tools do not exist: the model is not offered web_search or
// deep_research, and /research (listed as off in /help) says how to set a provider. With one, all three work.

let model: FakeModelServer;
let searxng: SearxngFake;
let test: TestApp;

beforeEach(async () => {
  model = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true });
  searxng = await startSearxngFake();
});
afterEach(async () => {
  await test.close();
  await model.close();
  await searxng.close();
});

const toolNames = (body: RequestBody | undefined): string[] =>
  (Array.isArray(body?.tools) ? (body.tools as { function?: { name?: string } }[]) : []).map((tool) => tool.function?.name ?? '');

interface SearchSetting {
  name: string;
  environment(searxngUrl: string): Record<string, string>;
  searchOn: boolean;
}

const settings: SearchSetting[] = [
  // Must not fire:
  { name: 'SEARCH_PROVIDER=none, even with SEARXNG_URL set', environment: (url) => ({ SEARCH_PROVIDER: 'none', SEARXNG_URL: url }), searchOn: false },
  { name: 'SEARCH_PROVIDER=auto with no provider configured', environment: () => ({ SEARCH_PROVIDER: 'auto' }), searchOn: false },
  { name: 'SEARCH_PROVIDER=brave without BRAVE_API_KEY', environment: (url) => ({ SEARCH_PROVIDER: 'brave', SEARXNG_URL: url }), searchOn: false },
  // Must fire:
  { name: 'SEARCH_PROVIDER=searxng with SEARXNG_URL', environment: (url) => ({ SEARCH_PROVIDER: 'searxng', SEARXNG_URL: url }), searchOn: true },
  { name: 'SEARCH_PROVIDER=auto with SEARXNG_URL', environment: (url) => ({ SEARCH_PROVIDER: 'auto', SEARXNG_URL: url }), searchOn: true },
];

describe.each(settings)('$name', (setting) => {
  const webTools = ['web_search', 'deep_research'];

  beforeEach(() => {
    test = createTestApp({ modelUrl: model.url, environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', ...setting.environment(searxng.url) } });
  });

  it(`${setting.searchOn ? 'offers' : 'does not offer'} web_search and deep_research to the model`, async () => {
    model.script({ text: 'สวัสดีค่ะ' });
    await test.ask('สวัสดี');
    model.assertAllConsumed();
    const offered = toolNames(model.chatRequests[0]);
    // Tools are offered at all (so a missing web tool is not just "no tools").
    expect(offered).toEqual(expect.arrayContaining(['query_knowledge', 'write_file']));
    for (const name of webTools) expect(offered.includes(name), name).toBe(setting.searchOn);
    expect(test.app.tools.some((tool) => webTools.includes(tool.name))).toBe(setting.searchOn);
  });

  it(`lists /research in /help${setting.searchOn ? '' : ' as off'}, and ${setting.searchOn ? 'runs it' : 'says how to turn it on'}`, async () => {
    const help = await test.ask('/help');
    const helpText = help.replies[0]?.text ?? '';
    expect(helpText).toContain('/kb');
    expect(helpText).toContain('/research');
    expect(helpText.includes('ปิดอยู่: ยังไม่ได้ตั้งค่าการค้นเว็บ')).toBe(!setting.searchOn);
    const status = (await test.ask('/status')).replies[0]?.text ?? '';
    expect(status).toContain(setting.searchOn ? '- ค้นเว็บ: ได้' : '- ค้นเว็บ: ไม่ได้ — ยังไม่ได้ตั้งค่า (SEARXNG_URL, BRAVE_API_KEY หรือ TAVILY_API_KEY)');

    // Bare, /research answers with its usage when search is on; without search, with or without a question, it says
    // what is missing and how to set it — never "unknown command", and nothing is searched or asked of the model.
    const bare = await test.ask('/research');
    const withQuestion = setting.searchOn ? undefined : await test.ask('/research ราคาทองคำวันนี้');
    const howTo = expect.stringMatching(/^ยังใช้ \/research ไม่ได้ เพราะยังไม่ได้ตั้งค่าการค้นเว็บ .*SEARXNG_URL.*BRAVE_API_KEY.*TAVILY_API_KEY/);
    expect(bare.replies.map((reply) => reply.text)).toEqual([setting.searchOn ? expect.stringMatching(/^วิธีใช้: \/research <คำถาม>/) : howTo]);
    if (withQuestion) expect(withQuestion.replies.map((reply) => reply.text)).toEqual([howTo]);
    expect(searxng.requests).toHaveLength(0);
    expect(model.chatRequests).toHaveLength(0);
  });
});
