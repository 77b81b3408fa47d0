import { Writable } from 'node:stream';
import { Keyv } from 'keyv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DetectedCapabilities } from '../../agent/model/index.js';
import { createLogger } from '../../src/shared/log.js';
import { checkModelServerAtStart } from '../../src/startup-checks-model.js';
import { startFakeModelServer, type FakeModelServer } from '../fakes/model-server.js';
import { startSwitchableRelay, type SwitchableRelay } from '../fakes/switchable-relay.js';

// The model server at start: one look, a warning naming MODEL_BASE_URL when it does not answer, then a watch in the
// background that says once, with what was detected, when it answers. The server "comes up" behind a relay.

interface Line {
  level: number;
  msg: string;
  [field: string]: unknown;
}

function capturedLog(): { log: ReturnType<typeof createLogger>; lines: Line[]; next: (matches: (line: Line) => boolean) => Promise<Line> } {
  const lines: Line[] = [];
  const waiters = new Set<() => void>();
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      for (const text of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Line);
      for (const check of [...waiters]) check();
      callback();
    },
  });
  const next = (matches: (line: Line) => boolean): Promise<Line> =>
    new Promise((resolve) => {
      const check = (): void => {
        const found = lines.find(matches);
        if (!found) return;
        waiters.delete(check);
        resolve(found);
      };
      waiters.add(check);
      check();
    });
  return { log: createLogger({ level: 'info', destination }), lines, next };
}

let fake: FakeModelServer;
let relay: SwitchableRelay;
const stops: (() => void)[] = [];

beforeEach(async () => {
  fake = await startFakeModelServer({ flavour: 'llama-server', declaredTools: true, declaredVision: false });
  relay = await startSwitchableRelay({ host: '127.0.0.1', port: Number(new URL(fake.origin).port) });
});
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await relay.close();
  await fake.close();
});

function capabilitiesAt(baseUrl: string, log: ReturnType<typeof createLogger>): DetectedCapabilities {
  return new DetectedCapabilities({
    settings: { baseUrl, apiKey: 'no-key', tools: 'auto', vision: 'auto' },
    model: () => Promise.resolve('qwen3.5-2b'),
    cache: new Keyv(),
    log,
  });
}

describe('checkModelServerAtStart', () => {
  it('warns in Thai naming MODEL_BASE_URL, keeps looking, and says once what it found when the server answers', async () => {
    const { log, lines, next } = capturedLog();
    const baseUrl = `${relay.origin}/v1`;
    fake.script({ toolCalls: [{ name: 'get_time', arguments: {} }] }); // the tool probe, once the server answers
    stops.push(await checkModelServerAtStart({ baseUrl, language: 'th', log, capabilities: capabilitiesAt(baseUrl, log), recheckDelaysMs: [1] }));

    expect(lines.find((line) => line.level === 30)).toMatchObject({ modelServer: 'unreachable', baseUrl });
    const warning = lines.find((line) => line.level === 40);
    expect(warning?.msg).toContain(`MODEL_BASE_URL=${baseUrl}`);
    expect(warning?.msg).toContain('llama-server หรือ ollama');
    expect(warning?.msg).toContain('/v1');

    // Three probes at start, then at least one look in the background, all while the server is down.
    await relay.whenDropped(4);
    relay.up();
    const reachable = await next((line) => line.msg.startsWith('ติดต่อเซิร์ฟเวอร์โมเดลได้แล้ว'));
    expect(reachable).toMatchObject({
      level: 30,
      modelServer: 'llama-server',
      tools: true,
      vision: false,
      msg: 'ติดต่อเซิร์ฟเวอร์โมเดลได้แล้ว: เรียกเครื่องมือได้ ดูรูปไม่ได้',
    });
    fake.assertAllConsumed();
  });

  it('a server that answers at start: one info line, no warning, no watch (English)', async () => {
    relay.up();
    const { log, lines } = capturedLog();
    const baseUrl = `${relay.origin}/v1`;
    stops.push(await checkModelServerAtStart({ baseUrl, language: 'en', log, capabilities: capabilitiesAt(baseUrl, log), recheckDelaysMs: [1] }));
    expect(lines).toEqual([expect.objectContaining({ level: 30, modelServer: 'reachable', msg: `model server at start: reachable at ${baseUrl}` })]);
    expect(fake.chatRequests).toHaveLength(0);
  });

  it('never shows a password in MODEL_BASE_URL', async () => {
    const { log, lines } = capturedLog();
    const baseUrl = `http://saeng:hunter2-secret@${relay.origin.slice('http://'.length)}/v1`;
    stops.push(await checkModelServerAtStart({ baseUrl, language: 'en', log, capabilities: capabilitiesAt(baseUrl, log), recheckDelaysMs: [60_000] }));
    expect(lines.length).toBeGreaterThan(0);
    expect(JSON.stringify(lines)).not.toContain('hunter2-secret');
    expect(lines.find((line) => line.level === 40)?.msg).toContain('MODEL_BASE_URL=http://saeng:***@');
  });
});
