import { PassThrough } from 'node:stream';
import { createConsoleAdapter, type ConsoleAdapter } from '../../../adapters/console/index.js';
import type { AnyTool } from '../../../agent/tools/tool.js';
import { consoleOwnerId } from '../../../src/app.js';
import { startFakeModelServer, type FakeModelServer } from '../../fakes/model-server.js';
import { createTestApp, type TestApp } from '../../support/test-app.js';

// The interactive console chat over PassThrough streams, started on a whole app (durable queue, router, agent)
// pointed at the fake model server: what a user at `npm run chat` types and sees.

export interface ChatTerminal {
  input: PassThrough;
  output: PassThrough;
  written(): string;
  /** Resolves once `text` has been written at or after `from` (an offset into written()). */
  appeared(text: string, from?: number): Promise<void>;
  /** Types characters (`\r` is Enter on a terminal, `\x03` Ctrl-C). */
  type(text: string): void;
}

export function chatTerminal(): ChatTerminal {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  const waiters: { text: string; from: number; resolve: () => void }[] = [];
  const seen = (text: string, from: number) => written.indexOf(text, from) >= 0;
  output.on('data', (chunk: Buffer) => {
    written += chunk.toString('utf8');
    for (const waiter of waiters.filter((candidate) => seen(candidate.text, candidate.from))) waiter.resolve();
  });
  return {
    input,
    output,
    written: () => written,
    appeared: (text, from = 0) => new Promise<void>((resolve) => (seen(text, from) ? resolve() : waiters.push({ text, from, resolve }))),
    type: (text) => void input.write(text),
  };
}

export interface ConsoleChatRun {
  fake: FakeModelServer;
  test: TestApp;
  adapter: ConsoleAdapter;
  screen: ChatTerminal;
  close(): Promise<void>;
}

export async function startConsoleChatRun(options: {
  terminal: boolean;
  extraTools?: readonly AnyTool[];
  maxAttachmentBytes?: number;
  environment?: Record<string, string>;
}): Promise<ConsoleChatRun> {
  const fake = await startFakeModelServer({ modelId: 'test-model' });
  const screen = chatTerminal();
  const adapter = createConsoleAdapter({
    userId: consoleOwnerId,
    language: 'th',
    input: screen.input,
    output: screen.output,
    errorOutput: screen.output,
    terminal: options.terminal,
    maxAttachmentBytes: options.maxAttachmentBytes,
  });
  const test = createTestApp({
    modelUrl: fake.url,
    environment: { MODEL_TOOLS: 'on', MODEL_VISION: 'off', ...options.environment },
    extraTools: options.extraTools,
    adapters: [adapter],
  });
  test.app.identify('console', await adapter.start(test.app.inbound));
  await test.app.inbound.resume();
  await screen.appeared('พร้อมคุยแล้ว');
  return {
    fake,
    test,
    adapter,
    screen,
    close: async () => {
      await adapter.stop();
      await test.close();
      await fake.close();
    },
  };
}

/** Every message text of a chat-completion request body, joined (what the model was shown). */
export function requestText(body: Record<string, unknown> | undefined): string {
  const messages = Array.isArray(body?.messages) ? (body.messages as { content?: unknown }[]) : [];
  return messages.map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? ''))).join('\n');
}
